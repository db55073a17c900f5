/** The developer error every audience throws for a missing or empty string option. */
export function requireOption<O>(audience: string, options: O, name: keyof O & string): void {
  if (typeof options?.[name] !== 'string' || options[name] === '') {
    throw new TypeError(`${audience}: the ${name} option is required.`);
  }
}
