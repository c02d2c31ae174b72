// `npm start`'s helper extension (scripts/start.mjs loads it beside SeqScope; never shipped).
//
// A file the workbench opens as it starts (a URL's openFile, `code folder file`) is resolved
// before the extensions under development have registered their editors, unless an earlier
// session left their file patterns in the browser's (or the profile's) cache, which a fresh
// browser has not: the sample then opens as text whatever workbench.editorAssociations says.
// This opens it in SeqScope's capture editor once the window has started instead.
const vscode = require('vscode');

/** The sample's name in the demo folder (scripts/start.mjs copies it there). */
const SAMPLE = 'cme-sample.jsonl';

module.exports.activate = async function activate() {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return;
  const uri = vscode.Uri.joinPath(folder.uri, SAMPLE);
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    return; // not the demo folder
  }
  await vscode.commands.executeCommand('vscode.openWith', uri, 'seqscope.captureEditor');
};

module.exports.deactivate = function deactivate() {};
