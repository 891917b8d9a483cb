/** A file the browser saves, made in the page (no round trip: the data is here already). */
export function download(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it started; a minute is more than it needs.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * A CSV file: UTF-8 with a byte order mark, without which Excel reads the names of members who
 * are not all ASCII as mojibake.
 */
export const downloadCsv = (filename: string, csv: string): void => download(filename, `\uFEFF${csv}`, 'text/csv;charset=utf-8');
