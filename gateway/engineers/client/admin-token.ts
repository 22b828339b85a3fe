/**
 * The admin token the engineer typed, kept in sessionStorage: this tab only, gone when it
 * closes, never a cookie (a cookie would go with requests other sites make the browser send).
 */
const KEY = 'peer.engineers.adminToken';

export function storedToken(): string | null {
  return sessionStorage.getItem(KEY);
}

export function keepToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(KEY);
}
