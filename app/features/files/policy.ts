/**
 * Files people can send (docs/decisions/0071-files-a-team-sends.md): the kinds of file the picker
 * offers, set by an administrator, and the largest file. The page enforces the kinds (the server sees
 * neither a file's content nor its name); the server enforces the size.
 */
import { fileExtension } from "~/conversation/files/attachments";

export const FILE_TYPES = ["standard", "office", "any"] as const;
export type FileTypes = (typeof FILE_TYPES)[number];

/** What the page reads (GET /api/files/policy): the kinds, the limit in MB, and the server's own cap. */
export interface FilePolicy {
  types: FileTypes;
  maxMb: number;
  capMb: number;
}

/** The specification's list (spec §5). */
const STANDARD_EXTENSIONS = ["pdf", "txt", "zip"];
/** Office documents (Microsoft and OpenDocument) and .csv. */
export const OFFICE_EXTENSIONS = ["doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp", "rtf", "csv"];

/** The console's words for each choice. */
export const FILE_TYPE_LABELS: Record<FileTypes, string> = {
  standard: "Images, .pdf, .txt and .zip (default)",
  office: "Those, office documents and .csv",
  any: "Any type of file",
};

const extensionsOf = (types: FileTypes) => (types === "office" ? [...STANDARD_EXTENSIONS, ...OFFICE_EXTENSIONS] : STANDARD_EXTENSIONS);

/** The picker's accept attribute (undefined: any file). */
export function acceptFor(types: FileTypes): string | undefined {
  if (types === "any") return undefined;
  return ["image/*", ...extensionsOf(types).map((ext) => `.${ext}`)].join(",");
}

/** True for a file the workspace lets people send (a recorded voice message always is). */
export function isAllowedFile(name: string, type: string, types: FileTypes): boolean {
  if (types === "any") return true;
  return type.startsWith("image/") || extensionsOf(types).includes(fileExtension(name));
}

/** What a refused file's sender reads. */
export function refusalFor(types: FileTypes): string {
  return types === "office"
    ? "Only images, .pdf, .txt, .zip, office documents and .csv files can be sent."
    : "Only images, .pdf, .txt and .zip files can be sent.";
}

export const tooLargeText = (maxMb: number) => `The file is larger than the limit of ${maxMb} MB.`;

export const MIB = 1024 * 1024;
