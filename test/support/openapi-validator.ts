/** Placeholder: replaced by the validator that checks responses against the OpenAPI document. */
export function validateAgainstOpenApi(_method: string, _path: string, _response: { status: number; headers: Headers; body: unknown }): void {}
