/** How long a download's object URL lives: long enough for the browser to start saving it. */
const REVOKE_AFTER_MS = 30_000;

/**
 * Saves a file the app fetched itself (with the session's Authorization header, which a plain link cannot
 * send) under `fileName`, through a temporary object URL.
 */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  saveUrl(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

/** Saves what an object URL the caller owns holds (the caller revokes it). */
export function saveUrl(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}
