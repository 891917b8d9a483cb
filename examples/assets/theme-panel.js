// The Theme panel of screens.html (issue 14): colour pickers, a radius slider and two selects
// that write the page's own --svc-* custom properties into <style id="svc-theme"> in the head.
// Custom properties reach into the dialog's shadow root, so an open dialog takes them at once.
// The panel also shows the same theme as CSS to paste and as the site file's `theme:` block.
// Only what the visitor changed is written: the rest stays the site's (or the widget's default).
(function () {
  'use strict';

  var form = document.getElementById('theme-form');
  if (!form) return;

  // The widget's light and dark palettes (src/widget/modal/theme.ts): text on background.
  var SCHEMES = {
    light: { text: '#111111', background: '#ffffff' },
    dark: { text: '#f3f4f6', background: '#1f2937' },
  };

  var accent = document.getElementById('theme-accent');
  var text = document.getElementById('theme-text');
  var background = document.getElementById('theme-background');
  var radius = document.getElementById('theme-radius');
  var radiusValue = document.getElementById('theme-radius-value');
  var font = document.getElementById('theme-font');
  var scheme = document.getElementById('theme-scheme');
  var cssOut = document.getElementById('theme-css');
  var yamlOut = document.getElementById('theme-yaml');
  var status = document.getElementById('theme-status');

  var style = document.getElementById('svc-theme');
  if (!style) {
    style = document.createElement('style');
    style.id = 'svc-theme';
    document.head.appendChild(style);
  }

  // Which of accent and radius the visitor moved (the pickers always hold some value).
  var changed = {};

  // The page's properties, in the order the snippets show them: [name, value] pairs.
  function properties() {
    var list = [];
    if (changed.accent) list.push(['--svc-accent', accent.value]);
    if (scheme.value !== 'system') {
      list.push(['--svc-text', text.value]);
      list.push(['--svc-background', background.value]);
    }
    if (changed.radius) list.push(['--svc-radius', radius.value + 'px']);
    if (font.value) list.push(['--svc-font-family', font.value]);
    return list;
  }

  function css() {
    var list = properties();
    if (list.length === 0) return "/* Nothing set: the dialog has the site's theme, else the widget's defaults. */";
    return '[data-svc-modal] {\n' + list.map(function (p) { return '  ' + p[0] + ': ' + p[1] + ';'; }).join('\n') + '\n}';
  }

  // The same in the site file. Colours are quoted (a bare # starts a YAML comment). The site's
  // text and background are its light scheme's only, so the page's fixed colours read as
  // `colorScheme: light`; the page's Dark is the widget's own dark palette there.
  function yaml() {
    var lines = []; // [line, comment]
    if (changed.accent) lines.push(['accent: "' + accent.value + '"']);
    if (scheme.value === 'dark') {
      lines.push(['colorScheme: dark', "the widget's dark palette: " + SCHEMES.dark.text + ' on ' + SCHEMES.dark.background]);
    } else if (scheme.value !== 'system') {
      lines.push(['text: "' + text.value + '"']);
      lines.push(['background: "' + background.value + '"']);
      lines.push(['colorScheme: light', "these colours, whatever the member's system"]);
    }
    if (changed.radius) lines.push(['radius: ' + radius.value, 'px, 0 to 32']);
    if (font.value) lines.push(['fontFamily: ' + JSON.stringify(font.value)]);
    var head = 'site:\n  # subdomain, name and the rest as they are, then:\n';
    if (lines.length === 0) return head + "  # no theme: the widget's defaults";
    var width = Math.max.apply(null, lines.map(function (l) { return l[1] ? l[0].length : 0; }));
    return head + '  theme:\n' + lines.map(function (l) {
      return '    ' + (l[1] ? l[0] + new Array(width - l[0].length + 1).join(' ') + '  # ' + l[1] : l[0]);
    }).join('\n');
  }

  function write() {
    var rules = css();
    style.textContent = rules;
    cssOut.textContent = rules;
    yamlOut.textContent = yaml();
    radiusValue.textContent = radius.value + ' px';
  }

  function on(element, handler) {
    element.addEventListener('input', handler);
    element.addEventListener('change', handler);
  }

  on(accent, function () { changed.accent = true; write(); });
  on(radius, function () { changed.radius = true; write(); });
  on(font, write);

  // A colour picked by hand: the scheme is the one it matches, else the visitor's own.
  function pickedColour() {
    var match = Object.keys(SCHEMES).filter(function (name) {
      return SCHEMES[name].text === text.value && SCHEMES[name].background === background.value;
    })[0];
    scheme.value = match || 'custom';
    write();
  }
  on(text, pickedColour);
  on(background, pickedColour);

  // Light and dark fill the two pickers; following the system shows the light palette's again.
  on(scheme, function () {
    var colours = SCHEMES[scheme.value] || (scheme.value === 'system' ? SCHEMES.light : null);
    if (colours) {
      text.value = colours.text;
      background.value = colours.background;
    }
    write();
  });

  document.getElementById('theme-reset').addEventListener('click', function () {
    form.reset();
    changed = {};
    status.textContent = '';
    write();
  });

  form.addEventListener('submit', function (event) { event.preventDefault(); });

  // A screen to look at: Log in, or the member menu once logged in.
  document.getElementById('theme-preview').addEventListener('click', function () {
    if (!window.Service || window.Service.ready !== true) {
      status.textContent = 'The widget is not ready yet.';
      return;
    }
    status.textContent = '';
    window.Service.open('/member/sign_in').catch(function (error) {
      status.textContent = 'Service.open rejected with ' + error.code + ': ' + error.message;
    });
  });

  // A reload may bring back the controls' last values: start from the defaults, as written.
  form.reset();
  write();
})();
