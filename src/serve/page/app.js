// Chariot's board page. The server (src/serve/) keeps the game, checks
// every move and runs the engine; this page draws what it is told and sends
// one text command per user action (the commands are listed in
// src/serve/session.rs).
"use strict";

const S = 56, M = 36, MY = 48; // intersection spacing, side and top margins, in SVG units
const SVG_NS = "http://www.w3.org/2000/svg";
const NAMES = {
  K: "帅", A: "仕", B: "相", E: "相", N: "马", H: "马", R: "车", C: "炮", P: "兵",
  k: "将", a: "士", b: "象", e: "象", n: "马", h: "马", r: "车", c: "炮", p: "卒",
};
const TEXT = {
  en: {
    notation: "Notation", language: "Language", sound: "Sound", flip: "Flip", takeback: "Take back",
    go: "Engine move", stop: "Stop", play: "Play", "you-play": "You play", red: "Red", black: "Black",
    both: "both sides (no engine)", strength: "Strength", time: "Time", start: "Start from", moves: "Moves",
    new: "New game", analysis: "Analysis", analyse: "Analyse", "stop-analysis": "Stop analysis",
    load: "Load a game", "load-button": "Load", game: "Game", full: "Full strength", friendly: "Friendly (plays at your level)",
    elo: "UCI_Elo...", "to-move": "to move", thinking: "Chariot is thinking...", "your-move": "Your move",
    check: "check", connecting: "Connecting...", disconnected: "Disconnected from the engine: reload the page.",
    depth: "depth", nodes: "nodes", nps: "nodes/s", viewing: "Viewing ply",
    review: "Review", "review-button": "Review the game", "per-move": "per move", export: "Annotated PGN",
    "offer-draw": "Offer a draw", resign: "Resign", "accept-draw": "Accept the draw",
    "engine-offers": "Chariot offers a draw.", "you-offered": "You offered a draw: Chariot answers with its move.",
    reviewing: "Reviewing", better: "better", inaccuracy: "inaccuracy", mistake: "mistake", blunder: "blunder",
    "stop-review": "Stop the review", "red-side": "Red", "black-side": "Black", "average-loss": "average loss",
  },
  zh: {
    notation: "记谱", language: "语言", sound: "声音", flip: "翻转", takeback: "悔棋", go: "电脑走", stop: "停止",
    play: "对弈", "you-play": "你执", red: "红方", black: "黑方", both: "双方（不用电脑）", strength: "棋力",
    time: "用时", start: "起始局面", moves: "着法", new: "新局", analysis: "分析", analyse: "分析",
    "stop-analysis": "停止分析", load: "载入棋谱", "load-button": "载入", game: "棋谱", full: "全力",
    friendly: "友好（按你的水平下）", elo: "等级分...", "to-move": "走棋", thinking: "电脑思考中...",
    "your-move": "轮到你走", check: "将军", connecting: "连接中...", disconnected: "与引擎断开：请刷新页面。",
    depth: "深度", nodes: "节点", nps: "节点/秒", viewing: "查看第",
    "offer-draw": "提和", resign: "认输", "accept-draw": "同意和棋", "engine-offers": "电脑提和。",
    "you-offered": "你已提和：电脑走棋时回答。",
    review: "复盘", "review-button": "复盘分析", "per-move": "每步", export: "带注释的棋谱", reviewing: "复盘中",
    better: "更好", inaccuracy: "欠佳", mistake: "错着", blunder: "败着", "stop-review": "停止复盘",
    "red-side": "红方", "black-side": "黑方", "average-loss": "平均损失",
  },
};

const ui = {
  lang: localStorage.getItem("lang") || (navigator.language.startsWith("zh") ? "zh" : "en"),
  notation: localStorage.getItem("notation") || "chinese",
  flipped: false,
  selected: null, // "h2": the square of the piece picked up
  state: null,
  lines: [],
  lastInfo: null,
  stateTime: 0,
  ranks: [],
  review: null, // the last `review` message
  sentAt: null, // when the last move was sent, for the round trip figure
  roundTripMs: null,
};
window.chariotUi = ui; // for the end-to-end test (scripts/e2e_serve.py)
const $ = (id) => document.getElementById(id);
const t = (key) => TEXT[ui.lang][key] || TEXT.en[key] || key;

// ---- The connection ----
let socket = null;
function connect() {
  socket = new WebSocket(`ws://${location.host}/ws`);
  setStatus(t("connecting"));
  socket.onmessage = (e) => receive(JSON.parse(e.data));
  socket.onclose = () => setStatus(t("disconnected"));
}
function send(command) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(command);
}
function receive(msg) {
  switch (msg.type) {
    case "welcome": ui.ranks = msg.ranks; fillLevels(); limitInputs(msg); send(levelCommand()); send(`time ${$("time").value}`); break;
    case "state": {
      const old = ui.state;
      ui.state = msg;
      ui.stateTime = performance.now();
      if (ui.sentAt !== null) { ui.roundTripMs = ui.stateTime - ui.sentAt; ui.sentAt = null; }
      if (!old || old.fen !== msg.fen) { ui.lines = []; ui.selected = null; }
      if (old && old.moves.length < msg.moves.length) beep();
      render();
      break;
    }
    case "info": ui.lines[msg.multipv - 1] = msg; ui.lastInfo = msg; renderAnalysis(); break;
    case "error": showError(msg.message); break;
    case "review_progress": $("review-progress").textContent = `${t("reviewing")} ${msg.done}/${msg.total}`; break;
    case "review": ui.review = msg; $("review-progress").textContent = ""; renderReview(); break;
  }
}

// ---- Board drawing ----
function el(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}
function xy(file, rank) {
  return ui.flipped ? [M + (8 - file) * S, MY + rank * S] : [M + file * S, MY + (9 - rank) * S];
}
function squareName(file, rank) { return "abcdefghi"[file] + rank; }
function parseSquare(sq) { return [sq.charCodeAt(0) - 97, Number(sq.slice(1))]; }

function drawGrid(svg) {
  const g = el("g", { class: "grid" }, svg);
  el("rect", { class: "edge", x: M - 6, y: MY - 6, width: 8 * S + 12, height: 9 * S + 12 }, g);
  for (let r = 0; r < 10; r++) el("line", { x1: M, y1: MY + r * S, x2: M + 8 * S, y2: MY + r * S }, g);
  for (let f = 0; f < 9; f++) {
    if (f === 0 || f === 8) el("line", { x1: M + f * S, y1: MY, x2: M + f * S, y2: MY + 9 * S }, g);
    else {
      el("line", { x1: M + f * S, y1: MY, x2: M + f * S, y2: MY + 4 * S }, g);
      el("line", { x1: M + f * S, y1: MY + 5 * S, x2: M + f * S, y2: MY + 9 * S }, g);
    }
  }
  for (const top of [0, 7]) { // the palaces' diagonals
    el("line", { x1: M + 3 * S, y1: MY + top * S, x2: M + 5 * S, y2: MY + (top + 2) * S }, g);
    el("line", { x1: M + 5 * S, y1: MY + top * S, x2: M + 3 * S, y2: MY + (top + 2) * S }, g);
  }
  const river = el("text", { class: "river", x: M + 2 * S, y: MY + 4.5 * S + 9, "text-anchor": "middle" }, svg);
  river.textContent = "楚 河";
  const river2 = el("text", { class: "river", x: M + 6 * S, y: MY + 4.5 * S + 9, "text-anchor": "middle" }, svg);
  river2.textContent = "汉 界";
  for (let f = 0; f < 9; f++) { // file letters, from Red's side
    const [x] = xy(f, 0);
    el("text", { class: "coord", x, y: ui.flipped ? 14 : MY + 9 * S + 42 }, svg).textContent = "abcdefghi"[f];
  }
}

// The board after the first `plies` moves: board[rank][file] = FEN letter.
function boardAt(plies) {
  const st = ui.state;
  const board = Array.from({ length: 10 }, () => Array(9).fill(null));
  st.start_fen.split(" ")[0].split("/").forEach((row, i) => {
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) f += Number(ch);
      else board[9 - i][f++] = ch;
    }
  });
  for (const m of st.moves.slice(0, plies)) {
    const [ff, fr] = parseSquare(m.iccs.slice(0, 2)), [tf, tr] = parseSquare(m.iccs.slice(2));
    board[tr][tf] = board[fr][ff];
    board[fr][ff] = null;
  }
  return board;
}
function shownPly() { return ui.state.view === null ? ui.state.moves.length : ui.state.view; }
function isRed(ch) { return ch === ch.toUpperCase(); }

function render() {
  const st = ui.state;
  if (!st) return;
  const svg = $("board");
  svg.replaceChildren();
  drawGrid(svg);
  const ply = shownPly();
  const board = boardAt(ply);
  if (ply > 0) { // the last move: its from- and to-points
    const m = st.moves[ply - 1].iccs;
    for (const sq of [m.slice(0, 2), m.slice(2)]) {
      const [x, y] = xy(...parseSquare(sq));
      el("rect", { class: "last", x: x - S / 2 + 3, y: y - S / 2 + 3, width: S - 6, height: S - 6, rx: 6 }, svg);
    }
  }
  for (let r = 0; r < 10; r++) for (let f = 0; f < 9; f++) {
    const ch = board[r][f];
    if (!ch) continue;
    const [x, y] = xy(f, r);
    const isKing = ch === "K" || ch === "k";
    const sideToMove = st.turn === "red" ? isRed(ch) : !isRed(ch);
    const cls = ["piece", isRed(ch) ? "red" : "black"];
    if (ui.selected === squareName(f, r)) cls.push("selected");
    if (isKing && st.check && sideToMove) cls.push("check");
    const g = el("g", { class: cls.join(" "), "data-square": squareName(f, r), transform: `translate(${x},${y})` }, svg);
    el("circle", { r: S * 0.44 }, g);
    el("circle", { r: S * 0.37, fill: "none", "stroke-width": 1 }, g);
    el("text", {}, g).textContent = NAMES[ch] || "?";
  }
  if (ui.selected) {
    for (const m of st.legal.filter((m) => m.startsWith(ui.selected))) {
      const [f, r] = parseSquare(m.slice(2));
      const [x, y] = xy(f, r);
      if (board[r][f]) el("circle", { class: "target capture", cx: x, cy: y, r: S * 0.47 }, svg);
      else el("circle", { class: "target", cx: x, cy: y, r: 8 }, svg);
    }
  }
  // One invisible hit area per point, on top, for clicks and drops.
  for (let r = 0; r < 10; r++) for (let f = 0; f < 9; f++) {
    const [x, y] = xy(f, r);
    el("rect", { class: "hit", x: x - S / 2, y: y - S / 2, width: S, height: S, "data-square": squareName(f, r) }, svg);
  }
  $("board-wrap").classList.toggle("flipped", ui.flipped);
  renderMoves();
  renderStatus();
  renderClocks();
  renderAnalysis();
  renderReview();
}

function renderMoves() {
  const st = ui.state, list = $("moves");
  list.replaceChildren();
  const startBlack = st.start_fen.split(" ")[1] === "b";
  let li = null;
  st.moves.forEach((m, i) => {
    const redMove = (i % 2 === 0) !== startBlack;
    if (!li || redMove) { li = document.createElement("li"); list.appendChild(li); }
    if (!redMove && li.childNodes.length === 0) li.appendChild(document.createTextNode("... "));
    const span = document.createElement("span");
    span.textContent = m[ui.notation] + " ";
    if (i + 1 === shownPly()) span.className = "current";
    span.onclick = () => view(i + 1);
    li.appendChild(span);
  });
}

function renderStatus() {
  const st = ui.state;
  const side = t(st.turn);
  let text;
  if (st.thinking) text = t("thinking");
  else if (st.engine && st.turn !== st.engine && !st.result) text = `${t("your-move")} (${side})`;
  else text = `${side} ${t("to-move")}`;
  if (st.check && !st.result) text += ` - ${t("check")}`;
  if (st.view !== null) text = `${t("viewing")} ${st.view} - ` + text;
  if (st.engine_offers_draw && !st.result) text += ` ${t("engine-offers")}`;
  if (st.player_offers_draw && !st.result) text += ` ${t("you-offered")}`;
  $("accept-draw").hidden = !(st.engine_offers_draw && !st.result);
  setStatus(text);
  $("result").textContent = st.result ? `${st.result.text}: ${(ui.lang === "zh" && st.result.zh.length ? st.result.zh : st.result.en).join(" ")}` : "";
  $("analyse").textContent = st.analysing ? t("stop-analysis") : t("analyse");
  $("review").textContent = st.reviewing ? t("stop-review") : t("review-button");
}

function renderClocks() {
  const st = ui.state;
  const top = $("clock-top"), bottom = $("clock-bottom");
  if (!st || !st.clock) { top.textContent = bottom.textContent = ""; return; }
  const passed = performance.now() - ui.stateTime;
  const left = (side) => st.clock[`${side}_ms`] - (st.clock.running === side ? passed : 0);
  const show = (ms) => { const s = Math.max(0, Math.floor(ms / 1000)); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; };
  const [topSide, bottomSide] = ui.flipped ? ["red", "black"] : ["black", "red"];
  top.textContent = `${t(topSide)} ${show(left(topSide))}`;
  bottom.textContent = `${t(bottomSide)} ${show(left(bottomSide))}`;
  top.classList.toggle("running", st.clock.running === topSide);
  bottom.classList.toggle("running", st.clock.running === bottomSide);
}

// The review: an evaluation graph (Red's view, capped at 10 pawns), the
// marked moves with the better move and the reason, the annotated PGN.
function renderReview() {
  const msg = ui.review;
  const graph = $("graph"), marks = $("review-marks");
  if (!msg) return;
  const doc = ui.lang === "zh" ? msg.zh : msg.en;
  const game = doc.games[0];
  const moves = game.moves;
  const notation = ui.notation;
  $("graph-box").hidden = false;
  graph.replaceChildren();
  const W = 400, H = 120, n = Math.max(moves.length, 1);
  const x = (ply) => (ply / n) * (W - 10) + 5;
  const y = (e) => {
    const cp = e.mate !== undefined ? (e.mate > 0 ? 1000 : -1000) : Math.max(-1000, Math.min(1000, e.cp));
    return H / 2 - (cp / 1000) * (H / 2 - 6);
  };
  el("line", { class: "axis", x1: 0, y1: H / 2, x2: W, y2: H / 2 }, graph);
  const points = [`${x(0)},${H / 2}`].concat(moves.map((m) => `${x(m.ply)},${y(m.eval)}`));
  el("polyline", { class: "curve", points: points.join(" ") }, graph);
  const now = shownPly();
  el("line", { class: "now", x1: x(now), y1: 0, x2: x(now), y2: H }, graph);
  marks.replaceChildren();
  for (const m of moves) {
    if (!m.class) continue;
    const dot = el("circle", { class: `dot ${m.class}`, cx: x(m.ply), cy: y(m.eval), r: 4 }, graph);
    dot.addEventListener("click", () => view(m.ply));
    const li = document.createElement("li");
    const side = m.side === "red" ? "" : "... ";
    li.appendChild(document.createTextNode(`${m.move_number}. ${side}${m.move[notation]} `));
    const cls = document.createElement("span");
    cls.className = `class ${m.class}`;
    cls.textContent = t(m.class);
    li.appendChild(cls);
    li.appendChild(document.createTextNode(` (${t("better")}: ${m.best.move[notation]} ${evalText(m.best.eval)})`));
    if (m.comment) { li.appendChild(document.createElement("br")); li.appendChild(document.createTextNode(m.comment)); }
    li.onclick = () => view(m.ply);
    marks.appendChild(li);
  }
  const s = game.summary;
  const line = (side, name) => `${t(name)}: ${s[side].inaccuracies} ${t("inaccuracy")}, ${s[side].mistakes} ${t("mistake")}, ${s[side].blunders} ${t("blunder")}, ${t("average-loss")} ${s[side].average_loss}`;
  $("review-summary").textContent = `${line("red", "red-side")}; ${line("black", "black-side")}`;
  const pgn = ui.lang === "zh" ? msg.pgn_zh : msg.pgn_en;
  const link = $("export");
  if (link.href) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([pgn], { type: "application/x-chess-pgn" }));
  link.hidden = false;
}
function clearReview() {
  ui.review = null;
  $("graph-box").hidden = true;
  $("review-marks").replaceChildren();
  $("review-summary").textContent = "";
  $("export").hidden = true;
}
function evalText(e) { return e.mate !== undefined ? `#${e.mate}` : (e.cp >= 0 ? "+" : "") + (e.cp / 100).toFixed(2); }

function scoreText(score) {
  if (score.mate !== undefined) return score.mate > 0 ? `M${score.mate}` : `-M${-score.mate}`;
  return (score.cp >= 0 ? "+" : "") + (score.cp / 100).toFixed(2);
}
function renderAnalysis() {
  const st = ui.state, list = $("lines");
  list.replaceChildren();
  for (const line of ui.lines) {
    if (!line) continue;
    const li = document.createElement("li");
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = scoreText(line.score);
    li.appendChild(score);
    const pv = ui.notation === "iccs" ? line.pv : ui.notation === "wxf" ? line.pv_wxf : line.pv_chinese;
    li.appendChild(document.createTextNode(pv.slice(0, 12).join(" ")));
    list.appendChild(li);
  }
  const info = ui.lastInfo;
  $("search-info").textContent = info && ui.lines.length
    ? `${t("depth")} ${info.depth}/${info.seldepth}, ${t("nodes")} ${info.nodes.toLocaleString()}, ${t("nps")} ${info.nps.toLocaleString()}, WDL ${info.wdl.join("/")}`
    : "";
  // The bar shows Red's expectation: win + half the draws, from Red's side.
  const best = ui.lines[0];
  let red = 0.5;
  if (best && st) {
    const [w, d, l] = best.wdl;
    const mover = (w + d / 2) / 1000;
    red = st.turn === "red" ? mover : 1 - mover;
  }
  $("evalbar-fill").style.height = `${Math.round(red * 100)}%`;
}

// ---- Input ----
let drag = null;
function squareAt(evt) {
  const target = document.elementsFromPoint(evt.clientX, evt.clientY).find((n) => n.classList && n.classList.contains("hit"));
  return target ? target.dataset.square : null;
}
function tryMove(from, to) {
  const move = from + to;
  if (ui.state.legal.includes(move)) { ui.sentAt = performance.now(); send(`play ${move}`); ui.selected = null; return true; }
  return false;
}
function onPointerDown(evt) {
  const sq = squareAt(evt);
  if (!sq || !ui.state) return;
  if (ui.selected && tryMove(ui.selected, sq)) return;
  if (ui.state.legal.some((m) => m.startsWith(sq))) {
    ui.selected = sq;
    render();
    const piece = $("board").querySelector(`g.piece[data-square="${sq}"]`);
    if (piece) drag = { piece, start: [evt.clientX, evt.clientY], transform: piece.getAttribute("transform") };
  } else if (ui.selected) { ui.selected = null; render(); }
}
function onPointerMove(evt) {
  if (!drag) return;
  const svg = $("board");
  const scale = 520 / svg.getBoundingClientRect().width; // SVG units per pixel
  const dx = (evt.clientX - drag.start[0]) * scale, dy = (evt.clientY - drag.start[1]) * scale;
  drag.piece.setAttribute("transform", `${drag.transform} translate(${dx},${dy})`);
}
function onPointerUp(evt) {
  if (!drag) return;
  const moved = Math.hypot(evt.clientX - drag.start[0], evt.clientY - drag.start[1]) > 8;
  drag.piece.setAttribute("transform", drag.transform);
  drag = null;
  const sq = squareAt(evt);
  if (moved && sq && ui.selected && !tryMove(ui.selected, sq)) render();
}

function view(ply) {
  const st = ui.state;
  if (!st) return;
  ply = Math.max(0, Math.min(st.moves.length, ply));
  if (st.engine && ply < st.moves.length) { send("engine none"); $("colour").value = "both"; }
  send(ply === st.moves.length ? "view end" : `view ${ply}`);
}

function fillLevels() {
  const select = $("level");
  select.replaceChildren();
  const add = (value, text) => { const o = document.createElement("option"); o.value = value; o.textContent = text; select.appendChild(o); };
  add("full", t("full"));
  for (const r of [...ui.ranks].reverse()) add(r.pinyin, `${r.chinese} ${r.pinyin} (${r.elo})`);
  add("friendly", t("friendly"));
  add("elo", t("elo"));
  select.value = localStorage.getItem("level") || "changshi";
  if (!select.value) select.value = "full";
  $("elo-row").hidden = select.value !== "elo";
}
function limitInputs(msg) {
  $("threads").max = msg.max_threads;
  $("hash").max = msg.max_hash_mb;
  $("multipv").max = msg.max_multipv;
}
function levelCommand() {
  const v = $("level").value;
  return v === "elo" ? `level elo ${Number($("elo").value) || 1500}` : `level ${v}`;
}
function newGame() {
  const colour = $("colour").value;
  localStorage.setItem("level", $("level").value);
  send(levelCommand());
  send(`time ${$("time").value}`);
  send("engine none");
  let command = "new";
  const fen = $("start-fen").value.trim(), moves = $("start-moves").value.trim();
  if (fen) command += ` fen ${fen}`;
  if (moves) command += ` moves ${moves}`;
  send(command);
  ui.flipped = colour === "black";
  if (colour !== "both") send(`engine ${colour === "red" ? "black" : "red"}`);
  showError("");
}

let errorTimer = null;
function showError(text) {
  $("errors").textContent = text;
  clearTimeout(errorTimer);
  if (text) errorTimer = setTimeout(() => { $("errors").textContent = ""; }, 8000);
}
function setStatus(text) { $("status").textContent = text; }

let audio = null;
function beep() {
  if (!$("sound").checked) return;
  audio = audio || new AudioContext();
  const osc = audio.createOscillator(), gain = audio.createGain();
  osc.frequency.value = 660;
  gain.gain.setValueAtTime(0.15, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.12);
  osc.connect(gain).connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + 0.12);
}

function translate() {
  document.documentElement.lang = ui.lang === "zh" ? "zh-CN" : "en";
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  if (ui.ranks.length) { const v = $("level").value; fillLevels(); $("level").value = v; }
}

function setup() {
  $("lang").value = ui.lang;
  $("notation").value = ui.notation;
  translate();
  const board = $("board");
  board.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  $("lang").onchange = () => { ui.lang = $("lang").value; localStorage.setItem("lang", ui.lang); translate(); render(); };
  // A new game or a loaded one makes the last review stale.
  $("new").addEventListener("click", () => clearReview());
  $("load").addEventListener("click", () => clearReview());
  $("notation").onchange = () => { ui.notation = $("notation").value; localStorage.setItem("notation", ui.notation); render(); };
  $("flip").onclick = () => { ui.flipped = !ui.flipped; render(); };
  $("takeback").onclick = () => send("takeback");
  $("go").onclick = () => send("go");
  $("stop").onclick = () => send("stop");
  $("offer-draw").onclick = () => send("draw");
  $("resign").onclick = () => send("resign");
  $("accept-draw").onclick = () => send("accept");
  $("new").onclick = newGame;
  $("level").onchange = () => { $("elo-row").hidden = $("level").value !== "elo"; send(levelCommand()); };
  $("elo").onchange = () => send(levelCommand());
  $("time").onchange = () => send(`time ${$("time").value}`);
  $("analyse").onclick = () => {
    if (ui.state && ui.state.analysing) send("analyse off");
    else { $("colour").value = "both"; send("analyse on"); }
  };
  $("multipv").onchange = () => send(`multipv ${$("multipv").value}`);
  $("threads").onchange = () => send(`threads ${$("threads").value}`);
  $("hash").onchange = () => send(`hash ${$("hash").value}`);
  $("load").onclick = () => { const text = $("pgn").value.trim(); if (text) { $("colour").value = "both"; send(`load ${text}`); } };
  $("pgn-file").onchange = async () => {
    const file = $("pgn-file").files[0];
    if (!file) return;
    if (file.size > 1 << 20) { showError("file too large (at most 1 MB)"); return; }
    // XQF is binary: it goes to the server as it is and loads at once.
    if (/\.xqf$/i.test(file.name)) { clearReview(); $("colour").value = "both"; socket.send(await file.arrayBuffer()); return; }
    $("pgn").value = await file.text();
  };
  $("review").onclick = () => send(ui.state && ui.state.reviewing ? "review stop" : `review ${$("review-time").value}`);
  $("first").onclick = () => view(0);
  $("prev").onclick = () => ui.state && view(shownPly() - 1);
  $("next").onclick = () => ui.state && view(shownPly() + 1);
  $("last").onclick = () => ui.state && view(ui.state.moves.length);
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || !ui.state) return;
    if (e.key === "ArrowLeft") view(shownPly() - 1);
    if (e.key === "ArrowRight") view(shownPly() + 1);
  });
  setInterval(renderClocks, 250);
  connect();
}
setup();
