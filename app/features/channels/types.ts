/** Shapes that travel between the web server and the page. Message content is always ciphertext here. */
export interface Channel {
  id: string;
  name: string;
  createdBy: string;
  created: string;
  kdfIterations: number;
}
