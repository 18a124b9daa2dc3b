/**
 * A peephole pass over the bytes of a frame update (components/terminal/frame-diff.ts): each patched run of
 * cells opens its colours and ends with a reset (`ESC[0m`), so eight dim snippets one below the
 * other write `ESC[2m … ESC[0m` eight times. A reset followed only by cursor moves and then the
 * very colours it closed is dropped with them; one followed by those colours and more keeps the
 * colours and writes only the extra codes. Cursor moves do not touch the pen, so what the terminal
 * shows is the same. Anything else after a reset — text, an erase (which paints with the current
 * background), a scroll — gets the reset first, and the update still ends in the default pen.
 * Colour codes left side by side are then written as one sequence (`ESC[0m ESC[2m` → `ESC[0;2m`),
 * which terminals apply in the same order.
 */

const CSI = "\u001b[";
/** One token: an SGR sequence, a cursor move (CUP/CHA/CUU/CUD/CUF/CUB/VPA, CR, BS), or anything else up to the next escape. */
const TOKEN = /\u001b\[([0-9;]*)m|\u001b\[[0-9;]*[HGABCDfd]|\r|\u0008+|\u001b\[[0-9;?]*[A-Za-z@]|[^\u001b\r\u0008]+|\u001b/gy;
const MOVE = /^(?:\u001b\[[0-9;]*[HGABCDfd]|\r|\u0008+)$/;

/** `bytes` with every reset that the colours after it re-open (past cursor moves only) left out. */
export function compactSgr(bytes: string): string {
  if (!bytes.includes(`${CSI}0m`)) return bytes;
  let out = "";
  /**
   * The SGR sequences in force since the last reset, as written. An update starts in the default
   * pen: frame-diff's runs of cells open their colours from it and every update ends in it.
   */
  let pen = "";
  /** A reset not yet written, and the pen it would close. */
  let pendingReset = false;
  /** SGR sequences read since the pending reset. */
  let reopened = "";
  /** Cursor moves read since the pending reset (written once it is settled). */
  let moves = "";
  const settle = () => {
    if (!pendingReset) return;
    if (reopened.startsWith(pen)) {
      out += moves + reopened.slice(pen.length);
      pen = reopened;
    } else {
      out += `${moves}${CSI}0m${reopened}`;
      pen = reopened;
    }
    pendingReset = false;
    reopened = "";
    moves = "";
  };
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(bytes); m; m = TOKEN.exec(bytes)) {
    const token = m[0];
    const params = m[1];
    if (params !== undefined) {
      const reset = params === "" || params === "0";
      if (reset) {
        if (!pendingReset) {
          pendingReset = true;
          reopened = "";
          moves = "";
        } else {
          reopened = ""; // a second reset: what came between is closed again
        }
      } else if (pendingReset) reopened += token;
      else {
        out += token;
        pen += token;
      }
      continue;
    }
    if (pendingReset && MOVE.test(token)) {
      moves += token;
      continue;
    }
    settle();
    out += token;
  }
  if (pendingReset) {
    // The update ends in the default pen, as it was written.
    out += pen === "" && reopened === "" ? moves : `${moves}${CSI}0m${reopened}`;
  }
  return out.replace(SGR_RUN, joinSgr);
}

/** Two or more SGR sequences in a row. */
const SGR_RUN = /(?:\u001b\[[0-9;]*m){2,}/g;

/** A run of SGR sequences as one: their parameters in order (an empty one is a reset, 0). */
function joinSgr(run: string): string {
  const params = run.slice(2, -1).split("m\u001b[").map((p) => (p === "" ? "0" : p));
  return `${CSI}${params.join(";")}m`;
}
