/** What the server tells the page about its configuration. */
export interface AppConfig {
  uploadMaxBytes: number;
  newsRefreshMs: number;
}
