/** The open conversation's message box, where focus goes when what held it is gone (null when none is shown). */
export const messageBox = () => document.querySelector<HTMLTextAreaElement>(".composer textarea");
