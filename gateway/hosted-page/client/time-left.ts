/**
 * The time left to pay, as a person reads it: hours and minutes while an hour or more is
 * left ("5 h 59 min", as a crypto window of six hours starts), minutes and seconds in the
 * last hour ("59:57"), when the seconds start to matter.
 */
export function timeLeft(milliseconds: number): string {
  const seconds = Math.max(0, Math.floor(milliseconds / 1000));
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
