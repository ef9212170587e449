/** What the server tells the page about its configuration. */
export interface AppConfig {
  uploadMaxBytes: number;
  newsRefreshMs: number;
  /** How long after the workspace opens the device looks after its MLS key packages. */
  keyPackagesDelayMs: number;
}
