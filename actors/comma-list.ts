/** The entries of a comma-separated setting, trimmed, empty ones dropped: `a, b,,c` is a, b, c. */
export function commaList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}
