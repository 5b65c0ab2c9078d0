// The explorer page: a board (cm-chessboard), the rules (chess.js), and the
// server's API (its routes: docs/http-api.md).
//
// The state is a root position, the moves played from it and how many of
// them are on the board (the cursor); the URL holds them (root: the root's
// key unless it is the start position, play: UCI moves, ply: the cursor
// when not at the end, pos: the key of the position on the board, game:
// the open game, and the filters), so a link reopens the same position and
// back and forward work. An open game is the line: its moves are played
// from its start, and stepping through it moves the whole explorer (the
// moves table, the FEN and PGN boxes, the opening) along; closing it goes
// back to the line from before.
//
// The right side has three modes: the explorer (the store's moves and
// games), a player's tree (GET /player: the same board, the player's moves
// with one color) and a game search (GET /search); the player's and the
// search's panels ask nothing until they are opened, so the first paint is
// the explorer's alone. The URL holds the mode, and the player and color.
//
// The file's sections: 1. constants and state; 2. the API calls; 3. the
// board; 4. the line (playing, stepping, the URL); 5. the panels, each
// drawn by its own render function from state and the server's answers;
// 6. the forms and buttons; 7. the keys and their help; 8. the start. A
// new panel adds its element to index.html, its API call to section 2, a
// render function to section 5, and a call from query (or its own loader).
import {
  Chessboard, INPUT_EVENT_TYPE, COLOR, Markers, MARKER_TYPE, Arrows, ARROW_TYPE,
  PromotionDialog, PROMOTION_DIALOG_RESULT_TYPE, Chess,
} from "./vendor/bundle.js"

// ---- 1. Constants and state -------------------------------------------

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
const SPEEDS = ["ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"]
const RATINGS = ["0", "1000", "1200", "1400", "1600", "1800", "2000", "2200", "2500"]
const DEFAULT_GAMES = 4 // top and recent games a position lists (the server's default)
const MORE_GAMES = 15 // with "more" (the server's most)
const PER_PAGE = 20 // games of a page of every game through the position
const SEARCH_PER_PAGE = 20 // games of a page of a search
const COMPLETIONS = 8 // names the player box offers
const SHOWN_MOVES = 12 // the moves a long table shows until "more moves" (at 1280x900 the top games stay on the first screen)

const $ = (id) => document.getElementById(id)
const state = {
  rootFen: START, rootKey: "", moves: [], ply: 0, // moves: [{uci, san}]
  filters: {speeds: [], ratings: [], since: "", until: ""},
  // game is the open game: {id, info (the /game answer), saved (the line
  // before it opened: {rootFen, rootKey, moves, ply}, null if unknown)}.
  game: null,
  answer: null, // the last /moves answer
  answerFiltered: false, // whether it was asked with filters
  gamesLimit: DEFAULT_GAMES, // top and recent games asked for
  allGames: null, // the pages of every game: {page, answer, loading}
  selected: -1, // the moves table's row chosen with the up and down keys
  mode: "explorer", // the right side: explorer, player or search
  player: {name: "", color: "white"}, // the player mode's player
  playerAnswer: null, // the last /player answer
  search: null, // the search panel's pages: {params, page, answer, loading}
  allMoves: false, // whether long moves tables show all their moves
}
let seq = 0 // the latest request; older answers are dropped
let allSeq = 0 // the latest page of every game asked for
let bookShown = true // false once the server says it has no Polyglot book
let playerSeq = 0 // the latest player tree asked for
let completeSeq = 0 // the latest completion asked for
let searchSeq = 0 // the latest search page asked for

// ---- 2. The API calls ------------------------------------------------

// getJSON fetches url and returns its JSON, or throws the server's error
// (with its status). The first /moves question may have left already
// (index.html's inline script): its answer is taken when the URL is the same.
async function getJSON(url) {
  const early = window.chessbookEarly
  window.chessbookEarly = null
  const r = await (early && early.url === url ? early.answer : fetch(url))
  noteBuild(r)
  let body
  try {
    body = await r.json()
  } catch {
    throw new Error(`${url}: ${r.status} ${r.statusText} (not JSON)`)
  }
  if (!r.ok) {
    const e = new Error(body.error || `${r.status} ${r.statusText}`)
    e.status = r.status
    throw e
  }
  return body
}

// noteBuild shows, while the server says a build is in progress on the
// store (its Chessbook-Build header: "in progress; N games committed so
// far"), that the answers are from the games committed so far, and hides
// the notice once an answer comes without it.
function noteBuild(r) {
  const el = document.getElementById("build")
  const h = r.headers.get("Chessbook-Build")
  if (!h) {
    el.hidden = true
    return
  }
  const m = /(\d+) games committed/.exec(h)
  const n = m ? Number(m[1]).toLocaleString("en-US") : "some"
  el.textContent = `A build is adding games to this store: the answers are from the ${n} games it has committed so far.`
  el.hidden = false
}

// positionParams returns the parameters naming the position on the board.
function positionParams() {
  const p = new URLSearchParams()
  if (state.rootFen !== START) p.set("fen", state.rootFen)
  const play = state.moves.slice(0, state.ply).map((m) => m.uci).join(",")
  if (play) p.set("play", play)
  return p
}

function filterParams(p) {
  const f = state.filters
  if (f.speeds.length) p.set("speeds", f.speeds.join(","))
  if (f.ratings.length) p.set("ratings", f.ratings.join(","))
  if (f.since) p.set("since", f.since)
  if (f.until) p.set("until", f.until)
  return p
}

const api = {
  // moves: the position's moves, totals, opening and top and recent games.
  moves() {
    const p = filterParams(positionParams())
    if (state.gamesLimit !== DEFAULT_GAMES) {
      p.set("topGames", String(state.gamesLimit))
      p.set("recentGames", String(state.gamesLimit))
    }
    return getJSON("/moves?" + p.toString())
  },
  // gamesPage: page n of every game through the position (a scan of the store).
  gamesPage(n) {
    const p = filterParams(positionParams())
    p.set("page", String(n))
    p.set("perPage", String(PER_PAGE))
    return getJSON("/games?" + p.toString())
  },
  game: (id) => getJSON("/game/" + encodeURIComponent(id)),
  position: (code) => getJSON("/position/" + encodeURIComponent(code)),
  book: () => getJSON("/polyglot?" + positionParams().toString()),
  // player: the player's tree at the position (one NDJSON line; lichess
  // streams several, the last one final), with the filters /player takes.
  async player() {
    const p = positionParams()
    p.set("player", state.player.name)
    p.set("color", state.player.color)
    const f = state.filters
    if (f.speeds.length) p.set("speeds", f.speeds.join(","))
    if (f.since) p.set("since", f.since)
    if (f.until) p.set("until", f.until)
    const r = await fetch("/player?" + p.toString())
    noteBuild(r)
    const text = await r.text()
    const lines = text.split("\n").filter((l) => l.trim())
    let body
    try {
      body = JSON.parse(lines[lines.length - 1])
    } catch {
      throw new Error(`/player: ${r.status} ${r.statusText} (not JSON)`)
    }
    if (!r.ok) throw new Error(body.error || `${r.status} ${r.statusText}`)
    return body
  },
  // players: the spellings of a name that contain text (the completion).
  players: (text) => getJSON("/players?" + new URLSearchParams({name: text, limit: String(COMPLETIONS)}).toString()),
  // search: a page of the games the search panel's parameters find.
  search: (params, page) => {
    const p = new URLSearchParams(params)
    p.set("page", String(page))
    p.set("perPage", String(SEARCH_PER_PAGE))
    return getJSON("/search?" + p.toString())
  },
  // checkFEN: the server's reading of a FEN (no games asked for).
  checkFEN: (fen) => getJSON("/moves?" + new URLSearchParams({fen, topGames: "0", recentGames: "0"}).toString()),
}

// ---- 3. The board ------------------------------------------------------

const board = new Chessboard($("board"), {
  position: START,
  assetsUrl: "/static/vendor/cm-chessboard/assets/",
  style: {pieces: {file: "pieces/standard.svg"}, animationDuration: 150},
  extensions: [{class: Markers}, {class: Arrows}, {class: PromotionDialog, props: {language: "en"}}],
})
board.enableMoveInput(onBoardInput)

// chessAt returns a chess.js game at fen with the first n moves played.
function chessAt(fen, moves, n) {
  const c = new Chess(fen)
  for (let i = 0; i < n; i++) c.move(moveOf(moves[i].uci))
  return c
}

function moveOf(uci) {
  return {from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4]}
}

function uciOf(m) { return m.from + m.to + (m.promotion || "") }

function currentChess() { return chessAt(state.rootFen, state.moves, state.ply) }

// onBoardInput takes a move made on the board: a legal one is played, a
// promotion first asks for its piece (cm-chessboard's PromotionDialog).
function onBoardInput(event) {
  if (event.type === INPUT_EVENT_TYPE.moveInputStarted) {
    return currentChess().moves({square: event.squareFrom}).length > 0
  }
  if (event.type !== INPUT_EVENT_TYPE.validateMoveInput) return true
  const c = currentChess()
  const legal = c.moves({square: event.squareFrom, verbose: true}).filter((m) => m.to === event.squareTo)
  if (!legal.length) return false
  if (legal.some((m) => m.promotion)) {
    board.showPromotionDialog(event.squareTo, c.turn() === "w" ? COLOR.white : COLOR.black, (result) => {
      if (result && result.type === PROMOTION_DIALOG_RESULT_TYPE.pieceSelected) {
        playUCI(event.squareFrom + event.squareTo + result.piece.charAt(1), c.fen())
      } else {
        board.setPosition(c.fen(), true) // the pawn goes back
      }
    })
    return true
  }
  playUCI(uciOf(legal[0]))
  return true
}

// showArrow draws the arrow of a move (UCI) on the board, or none.
function showArrow(uci) {
  board.removeArrows()
  if (uci) board.addArrow(ARROW_TYPE.info, uci.slice(0, 2), uci.slice(2, 4))
}

// hoverArrow makes hovering el show the arrow of uci.
function hoverArrow(el, uci) {
  el.addEventListener("mouseenter", () => showArrow(uci))
  el.addEventListener("mouseleave", () => showArrow(""))
}

function markLastMove(m) {
  board.removeMarkers(MARKER_TYPE.square)
  if (m) {
    board.addMarker(MARKER_TYPE.square, m.uci.slice(0, 2))
    board.addMarker(MARKER_TYPE.square, m.uci.slice(2, 4))
  }
}

function flip() {
  board.setOrientation(board.getOrientation() === COLOR.white ? COLOR.black : COLOR.white)
}

// ---- 4. The line: playing, stepping, the URL ---------------------------

// playUCI plays a move (UCI) at the cursor. A move offered for another
// position (fen: a row of a table drawn before the last move played, when
// rows and buttons are clicked faster than the server answers) is not
// played, nor is one the rules refuse.
function playUCI(uci, fen) {
  const c = currentChess()
  if (fen && placement(fen) !== placement(c.fen())) return
  let m
  try {
    m = c.move(moveOf(uci))
  } catch {
    return // chess.js throws on an illegal move
  }
  if (!m) return
  playMove({uci: uciOf(m), san: m.san})
}

// playMove plays m at the cursor: the next move of the line if it is the
// same, else the line is cut there and goes on with m (leaving the game,
// if one was open: the line is the player's own from here).
function playMove(m) {
  if (state.moves[state.ply] && state.moves[state.ply].uci === m.uci) {
    state.ply++
  } else {
    state.moves = state.moves.slice(0, state.ply).concat([m])
    state.ply = state.moves.length
    state.game = null
  }
  update(true)
}

// step moves the cursor to to(ply, length).
function step(to) {
  const ply = Math.max(0, Math.min(state.moves.length, to(state.ply, state.moves.length)))
  if (ply !== state.ply) {
    state.ply = ply
    update(true)
  }
}

// update shows the state: the board, the line, the boxes, the game panel
// and the URL (pushed when push), then asks the server about the position.
function update(push) {
  const c = currentChess()
  board.setPosition(c.fen(), true)
  showArrow("")
  markLastMove(state.moves[state.ply - 1])
  renderLine()
  renderBoxes(c)
  renderGame()
  state.allGames = null
  renderAllGames()
  state.answer = null // its key (pos= in the URL) is the previous position's
  for (const t of [$("moves"), $("player-moves"), $("book")]) t.classList.add("stale")
  writeURL(push)
  query()
}

function writeURL(push) {
  const u = new URLSearchParams()
  if (state.rootFen !== START) {
    if (state.rootKey) u.set("root", state.rootKey)
    else u.set("fen", state.rootFen)
  }
  if (state.moves.length) u.set("play", state.moves.map((m) => m.uci).join(","))
  if (state.ply !== state.moves.length) u.set("ply", String(state.ply))
  if (state.answer && state.answer.key) u.set("pos", state.answer.key)
  if (state.game) u.set("game", state.game.id)
  filterParams(u)
  if (state.mode !== "explorer") u.set("mode", state.mode)
  if (state.mode === "player" && state.player.name) {
    u.set("player", state.player.name)
    u.set("color", state.player.color)
  }
  const url = "?" + u.toString()
  if (url === location.search) return
  if (push) history.pushState(null, "", url)
  else history.replaceState(null, "", url)
}

// readURL sets the state from the page's URL.
async function readURL() {
  const u = new URLSearchParams(location.search)
  const list = (k) => (u.get(k) || "").split(",").filter(Boolean)
  state.filters = {speeds: list("speeds"), ratings: list("ratings"), since: u.get("since") || "", until: u.get("until") || ""}
  showFilters()
  const mode = ["player", "search"].includes(u.get("mode")) ? u.get("mode") : "explorer"
  state.player = {name: u.get("player") || (mode === "player" ? state.player.name : ""), color: u.get("color") === "black" ? "black" : "white"}
  showMode(mode)
  let fen = u.get("fen") || START
  state.rootKey = ""
  try {
    const code = u.get("root") || (!u.get("play") && !u.get("fen") ? u.get("pos") : "")
    if (code) {
      const p = await api.position(code)
      fen = p.fen
      state.rootKey = p.key
    }
    const c = new Chess(fen)
    const moves = []
    for (const uci of list("play")) {
      const m = c.move(moveOf(uci))
      moves.push({uci: uciOf(m), san: m.san})
    }
    state.rootFen = fen
    state.moves = moves
    const ply = u.has("ply") ? parseInt(u.get("ply"), 10) : moves.length
    state.ply = Number.isFinite(ply) ? Math.max(0, Math.min(moves.length, ply)) : moves.length
  } catch (e) {
    showError(`The link's position cannot be read: ${e.message}`)
    state.rootFen = START
    state.moves = []
    state.ply = 0
  }
  const id = u.get("game")
  if (!id) {
    state.game = null
  } else if (!state.game || state.game.id !== id) {
    // The line is the game's already (play=): only its panel is missing.
    state.game = {id, info: null, saved: null}
    api.game(id).then((g) => {
      if (state.game && state.game.id === id) {
        state.game.info = g
        renderGame()
      }
    }).catch((e) => showError(e.message))
  }
  update(false)
}

// openGame opens game id: its moves become the line, the cursor where it
// reaches the position on the board (its first move if it never does).
async function openGame(id) {
  let g
  try {
    g = await api.game(id)
  } catch (e) {
    showError(e.message)
    return
  }
  const fen = g.fen || START
  const c = new Chess(fen)
  const here = placement(currentChess().fen())
  let ply = -1
  const moves = []
  for (const san of g.moves) {
    if (ply < 0 && placement(c.fen()) === here) ply = moves.length
    const m = c.move(san)
    moves.push({uci: uciOf(m), san: m.san})
  }
  if (ply < 0) ply = placement(c.fen()) === here ? moves.length : 0
  const saved = state.game ? state.game.saved : {rootFen: state.rootFen, rootKey: state.rootKey, moves: state.moves, ply: state.ply}
  state.game = {id, info: g, saved}
  state.rootFen = fen
  state.rootKey = ""
  state.moves = moves
  state.ply = ply
  update(true)
  keepBoardInView()
}

// placement returns what of a FEN tells positions apart (not the clocks,
// nor an en-passant square chess.js leaves out when no capture is legal).
function placement(fen) { return fen.split(" ").slice(0, 3).join(" ") }

// closeGame closes the open game and goes back to the line from before it.
function closeGame() {
  const saved = state.game && state.game.saved
  state.game = null
  if (saved) Object.assign(state, saved)
  update(true)
}

// keepBoardInView scrolls the page up to the board when it is out of view
// (on a phone, where the games are under the moves table).
function keepBoardInView() {
  const r = $("board").getBoundingClientRect()
  if (r.top < 0 || r.bottom > window.innerHeight) $("board").scrollIntoView({block: "start"})
}

// ---- 5. The panels -----------------------------------------------------

function showError(msg) {
  $("error").textContent = msg
  $("error").hidden = !msg
}

// query asks the server about the position on the board and draws the
// panels that follow it.
async function query() {
  if (state.mode === "player") queryPlayer()
  const my = ++seq
  const filtered = isFiltered()
  const fen = currentChess().fen() // the position the answers are about
  try {
    const answer = await api.moves()
    if (my !== seq) return
    showError("")
    state.answer = answer
    state.answerFiltered = filtered
    if (state.ply === 0) state.rootKey = answer.key
    writeURL(false)
    renderOpening(answer)
    renderMoves(answer, filtered, fen)
    renderGamesLists(answer)
    if (!window.chessbookFirstPaint) window.chessbookFirstPaint = performance.now()
  } catch (e) {
    if (my === seq) showError(e.message)
  }
  if (bookShown) {
    try {
      const b = await api.book()
      if (my === seq) renderBook(b, fen)
    } catch (e) {
      if (e.status === 404) {
        bookShown = false
        $("book").hidden = true
      }
    }
  }
}

// share writes n of total as a percentage: whole numbers from 1% to 99%,
// one decimal below and above (a move that was played never reads 0%).
function share(n, total) {
  if (!total) return "0%"
  if (n === total) return "100%"
  const p = 100 * n / total
  if (n > 0 && p < 0.1) return "<0.1%"
  if (p > 99.9) return ">99.9%"
  if (p < 1 || p > 99) return p.toFixed(1) + "%"
  return p.toFixed(0) + "%"
}

function bar(w, d, b) {
  const n = w + d + b
  const el = document.createElement("div")
  el.className = "bar"
  for (const [cls, v] of [["w", w], ["d", d], ["b", b]]) {
    const s = document.createElement("span")
    s.className = cls
    const p = n ? 100 * v / n : 0
    s.style.width = p + "%"
    s.textContent = p >= 12 ? p.toFixed(0) + "%" : ""
    s.title = `${v.toLocaleString()} (${share(v, n)})`
    el.append(s)
  }
  return el
}

function cell(tr, content, cls) {
  const td = document.createElement("td")
  if (cls) td.className = cls
  if (content instanceof Node) td.append(content)
  else td.textContent = content
  tr.append(td)
  return td
}

function renderOpening(a) {
  const op = $("opening")
  op.replaceChildren()
  if (a.opening) {
    const eco = document.createElement("span")
    eco.className = "eco"
    eco.textContent = a.opening.eco
    op.append(eco, a.opening.name)
  }
}

// renderMoves draws the moves table of answer a. The store keeps dates
// and performance for all games only: a filtered answer has none, and the
// table says so once instead of a dash per move.
function renderMoves(a, filtered, fen) {
  const table = $("moves")
  table.dataset.fen = a.fen
  table.classList.remove("stale")
  state.selected = -1
  const total = a.white + a.draws + a.black + a.unknown
  const tbody = table.tBodies[0]
  tbody.replaceChildren()
  a.moves.forEach((m, i) => {
    const tr = document.createElement("tr")
    tr.dataset.uci = m.uci
    tr.dataset.fen = fen
    cell(tr, moveCell(m.san, m.opening, a.opening))
    const games = document.createElement("span")
    const sh = document.createElement("span")
    sh.className = "share"
    sh.textContent = ` (${share(m.games, total)})`
    games.append(m.games.toLocaleString(), sh)
    cell(tr, games, "count")
    cell(tr, bar(m.white, m.draws, m.black))
    cell(tr, m.averageRating ? String(m.averageRating) : "–").title = m.averageRating ? "" : "no rated player made this move"
    if (!filtered) {
      cell(tr, m.performance != null ? String(m.performance) : "–").title = m.performance != null ? "" : "unknown: no opponent rating"
      cell(tr, m.lastPlayed || "–")
    } else if (i === 0) {
      const td = cell(tr, "not kept per filter: clear the filters to see them", "not-kept")
      td.colSpan = 2
      td.rowSpan = a.moves.length
    }
    tr.addEventListener("click", () => playUCI(m.uci, fen))
    hoverArrow(tr, m.uci)
    tbody.append(tr)
  })
  const tfoot = table.tFoot
  tfoot.replaceChildren()
  collapseMoves(table, a.moves.map((m) => m.games), total)
  if (a.moves.length) {
    const tr = document.createElement("tr")
    cell(tr, "total")
    cell(tr, total.toLocaleString(), "count")
    cell(tr, bar(a.white, a.draws, a.black))
    cell(tr, ""); cell(tr, ""); cell(tr, "")
    tfoot.append(tr)
  }
  const empty = $("empty")
  const notices = (a.notices || []).map((n) => n.charAt(0).toUpperCase() + n.slice(1) + ".")
  const none = a.moves.length ? "" : (filtered ? "No game the filters select goes on from this position." : "No game in the book goes on from this position.")
  // Notices say what the filters cannot select (games without a
  // TimeControl or ratings): shown with the table, not only when empty.
  empty.textContent = [none, ...notices].filter(Boolean).join(" ")
  empty.hidden = empty.textContent === ""
}

// moveCell returns the first cell of a move's row: its SAN and, on the
// same line, the opening it leads to as shortName writes it (the whole
// name in its title), cut with an ellipsis where the column ends.
function moveCell(san, opening, parent) {
  const mv = document.createElement("span")
  mv.className = "mv"
  mv.append(san)
  const short = opening ? shortName(opening.name, parent) : ""
  if (short) {
    const name = document.createElement("span")
    name.className = "name"
    name.textContent = short
    name.title = opening.name
    mv.append(name)
  }
  return mv
}

// collapseMoves hides the rows of a long table (more than SHOWN_MOVES and
// two) after the first SHOWN_MOVES, with a row of its foot that shows them
// (games: the moves' games, of total) and hides them again.
function collapseMoves(table, games, total) {
  const rows = [...table.tBodies[0].rows]
  rows.forEach((tr) => tr.classList.remove("rare"))
  table.classList.toggle("all-moves", state.allMoves)
  if (rows.length <= SHOWN_MOVES + 2) return
  const rare = rows.slice(SHOWN_MOVES)
  rare.forEach((tr) => tr.classList.add("rare"))
  const n = games.slice(SHOWN_MOVES).reduce((x, y) => x + y, 0)
  const tr = document.createElement("tr")
  tr.className = "more-moves"
  const td = cell(tr, "")
  td.colSpan = 6
  const b = document.createElement("button")
  b.type = "button"
  const label = () => {
    b.textContent = state.allMoves ? `hide the ${rare.length} less played moves` :
      `${rare.length} more moves (${n.toLocaleString()} games, ${share(n, total)})`
  }
  label()
  b.addEventListener("click", () => {
    state.allMoves = !state.allMoves
    table.classList.toggle("all-moves", state.allMoves)
    label()
  })
  td.append(b)
  table.tFoot.append(tr)
}

// shortName returns name without what it shares with the position's own
// opening (parent): "…English Attack" under "Sicilian Defense: Najdorf
// Variation", nothing for the same name.
function shortName(name, parent) {
  if (parent && name === parent.name) return ""
  if (!parent || !name.startsWith(parent.name)) return name
  const rest = name.slice(parent.name.length)
  return /^[:,] /.test(rest) ? "…" + rest.slice(2) : name
}

// movesTable returns the moves table shown: the store's, or the player's.
function movesTable() { return state.mode === "player" ? $("player-moves") : $("moves") }

// selectMove marks row i of the moves table (the up and down keys) and
// shows its arrow.
function selectMove(i) {
  const rows = movesTable().tBodies[0].rows
  if (!rows.length) return
  state.selected = Math.max(0, Math.min(rows.length - 1, i))
  if (rows[state.selected].classList.contains("rare") && !state.allMoves) {
    const more = movesTable().tFoot.querySelector(".more-moves button")
    if (more) more.click()
  }
  for (const [j, tr] of [...rows].entries()) tr.classList.toggle("selected", j === state.selected)
  showArrow(rows[state.selected].dataset.uci)
}

function isFiltered() {
  const f = state.filters
  return Boolean(f.speeds.length || f.ratings.length || f.since || f.until)
}

function who(p) { return p.name + (p.rating ? ` (${p.rating})` : "") }

// gameItem returns a list item for game g (a GameRef), which opens it.
function gameItem(g) {
  const li = document.createElement("li")
  li.dataset.id = g.id
  if (state.game && state.game.id === g.id) li.className = "open"
  const res = document.createElement("span")
  res.className = "res"
  res.textContent = g.result === "1/2-1/2" ? "½-½" : g.result
  const meta = document.createElement("div")
  meta.className = "meta"
  meta.textContent = [g.date || g.year || "", g.event].filter(Boolean).join(" · ")
  li.append(who(g.white), res, who(g.black), meta)
  li.addEventListener("click", () => openGame(g.id))
  if (g.uci) hoverArrow(li, g.uci)
  return li
}

function renderGameList(ul, games) {
  ul.replaceChildren()
  if (!games.length) {
    const li = document.createElement("li")
    li.className = "meta"
    li.textContent = "none"
    ul.append(li)
  }
  for (const g of games) ul.append(gameItem(g))
}

function renderGamesLists(a) {
  renderGameList($("top-games"), a.topGames)
  renderGameList($("recent-games"), a.recentGames)
  $("all-games-open").hidden = Boolean(state.allGames) || a.moves.length === 0
  // More can be had when a list is full at the number asked for.
  $("games-more").hidden = state.gamesLimit >= MORE_GAMES ||
    (a.topGames.length < state.gamesLimit && a.recentGames.length < state.gamesLimit)
}

// renderAllGames draws the page of every game through the position.
function renderAllGames() {
  const s = state.allGames
  $("all-games").hidden = !s
  $("all-games-open").hidden = Boolean(s)
  if (!s) return
  const ul = $("all-games-list")
  ul.replaceChildren()
  const a = s.answer
  $("all-games-where").textContent = s.loading ? `page ${s.page}: reading the stored games…` :
    a ? (a.games.length ? `page ${a.page}, games ${(a.page - 1) * a.perPage + 1}–${(a.page - 1) * a.perPage + a.games.length}` : `page ${a.page}: no games`) : ""
  if (a) for (const g of a.games) ul.append(gameItem(g))
  $("all-games-prev").disabled = s.loading || s.page <= 1
  $("all-games-next").disabled = s.loading || !a || !a.more
}

async function loadAllGames(page) {
  const my = ++allSeq
  const at = seq
  state.allGames = {page, answer: state.allGames && state.allGames.answer, loading: true}
  renderAllGames()
  try {
    const a = await api.gamesPage(page)
    if (my !== allSeq || at !== seq || !state.allGames) return
    state.allGames = {page, answer: a, loading: false}
  } catch (e) {
    if (my !== allSeq || !state.allGames) return
    state.allGames = {page, answer: null, loading: false}
    showError(e.status === 503 ? `The server is busy reading games for others: try again in a moment (${e.message})` : e.message)
  }
  renderAllGames()
}

function renderBook(b, fen) {
  $("book").hidden = false
  $("book").classList.remove("stale")
  $("book-name").textContent = b.book
  const tbody = $("book").querySelector("tbody")
  tbody.replaceChildren()
  if (!b.moves.length) {
    const tr = document.createElement("tr")
    cell(tr, "not in the book").colSpan = 2
    tbody.append(tr)
  }
  for (const m of b.moves) {
    const tr = document.createElement("tr")
    cell(tr, m.san)
    cell(tr, m.percent.toFixed(1)).title = `weight ${m.weight}`
    tr.addEventListener("click", () => playUCI(m.uci, fen))
    hoverArrow(tr, m.uci)
    tbody.append(tr)
  }
}

// renderLine draws the line as SAN, the cursor's move marked and kept in
// view inside the line's own box (the page does not scroll).
function renderLine() {
  const el = $("line")
  el.replaceChildren()
  let number = parseInt(state.rootFen.split(" ")[5] || "1", 10)
  let white = state.rootFen.split(" ")[1] !== "b"
  state.moves.forEach((m, i) => {
    // A move number and its move are one box: the line breaks between
    // moves, never after "5.".
    const box = document.createElement("span")
    box.className = "ply"
    if (white || i === 0) {
      const n = document.createElement("span")
      n.className = "num"
      n.textContent = number + (white ? "." : "...")
      box.append(n, " ")
    }
    const s = document.createElement("span")
    s.className = "san" + (i + 1 === state.ply ? " current" : "")
    s.textContent = m.san
    s.dataset.ply = String(i + 1)
    s.addEventListener("click", () => step(() => i + 1))
    box.append(s)
    el.append(box, " ")
    if (!white) number++
    white = !white
  })
  const cur = el.querySelector(".current")
  if (cur && (cur.offsetTop < el.scrollTop || cur.offsetTop + cur.offsetHeight > el.scrollTop + el.clientHeight)) {
    el.scrollTop = cur.offsetTop - el.clientHeight / 2
  } else if (!cur) {
    el.scrollTop = 0
  }
}

// linePGN writes the line as PGN: the open game's tags, or the root's FEN
// when it is not the start position, then the moves.
function linePGN() {
  const tags = []
  const g = state.game && state.game.info
  if (g) for (const t of g.tags) tags.push([t.name, t.value])
  if (state.rootFen !== START && !tags.some(([n]) => n === "FEN")) tags.push(["SetUp", "1"], ["FEN", state.rootFen])
  const head = tags.map(([n, v]) => `[${n} "${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"]\n`).join("")
  const words = []
  let number = parseInt(state.rootFen.split(" ")[5] || "1", 10)
  let white = state.rootFen.split(" ")[1] !== "b"
  state.moves.forEach((m, i) => {
    if (white) words.push(number + ".")
    else if (i === 0) words.push(number + "...")
    words.push(m.san)
    if (!white) number++
    white = !white
  })
  words.push(g ? g.result : "*")
  return (head ? head + "\n" : "") + words.join(" ")
}

// renderBoxes fills the FEN and PGN boxes, but not while one is edited.
function renderBoxes(c) {
  if (document.activeElement !== $("fen")) $("fen").value = c.fen()
  if (document.activeElement !== $("pgn")) $("pgn").value = linePGN()
  $("pgn-copied").textContent = ""
}

// renderGame draws the open game's panel (above its moves, the line).
function renderGame() {
  const open = Boolean(state.game)
  $("game").hidden = !open
  document.body.classList.toggle("game-open", open)
  for (const li of document.querySelectorAll(".games li[data-id], #all-games-list li[data-id], #search-list li[data-id]")) {
    li.classList.toggle("open", open && li.dataset.id === state.game.id)
  }
  if (!open) return
  const g = state.game.info
  const id = state.game.id
  $("game-download").href = `/game/${id}?format=pgn`
  $("game-download").download = `${id}.pgn`
  if (!g) {
    $("game-title").textContent = `game ${id}`
    return
  }
  $("game-title").textContent = `${who(g.white)} – ${who(g.black)}, ${g.result === "1/2-1/2" ? "½-½" : g.result}`
  $("game-meta").textContent = [g.date, g.event, g.round && g.round !== "?" ? "round " + g.round : "", g.site].filter(Boolean).join(" · ")
  const tags = $("game-tags")
  tags.replaceChildren()
  for (const t of g.tags) {
    const tr = document.createElement("tr")
    cell(tr, t.name); cell(tr, t.value)
    tags.append(tr)
  }
}

// showMode shows mode's panels (explorer, player or search), without
// asking the server anything.
function showMode(mode) {
  state.mode = mode
  for (const m of ["explorer", "player", "search"]) {
    document.body.classList.toggle("mode-" + m, m === mode)
    $("mode-" + m).setAttribute("aria-pressed", String(m === mode))
  }
  $("player-panel").hidden = mode !== "player"
  $("search-panel").hidden = mode !== "search"
  $("filters").hidden = mode === "search"
  $("player-name").value = state.player.name
  for (const c of ["white", "black"]) $("player-" + c).setAttribute("aria-pressed", String(state.player.color === c))
}

// setMode switches the right side to mode, asking for what it shows.
function setMode(mode) {
  if (mode === state.mode) return
  showMode(mode)
  writeURL(true)
  if (mode === "player") {
    if (state.player.name) queryPlayer()
    else $("player-name").focus()
  }
  if (mode === "search" && !state.search) $("search-form").querySelector("input").focus()
}

// queryPlayer asks for the player's tree at the position on the board.
async function queryPlayer() {
  const my = ++playerSeq
  if (!state.player.name) {
    state.playerAnswer = null
    renderPlayer()
    return
  }
  $("player-head").textContent = "reading the player's games…"
  const fen = currentChess().fen() // the position the answer is about
  try {
    const a = await api.player()
    if (my !== playerSeq) return
    a.fen = fen
    state.playerAnswer = a
  } catch (e) {
    if (my !== playerSeq) return
    state.playerAnswer = null
    showError(e.message)
  }
  renderPlayer()
}

// playerGameRef returns a game of a /player answer as gameItem takes it.
function playerGameRef(g) {
  const result = g.winner === "white" ? "1-0" : g.winner === "black" ? "0-1" : "1/2-1/2"
  return {id: g.id, uci: g.uci, white: g.white, black: g.black, result, date: g.month, event: g.speed === "classical" ? "" : g.speed}
}

// renderPlayer draws the player's tree: its moves (played on click, their
// arrow on hover; the game when one game played it) and recent games.
function renderPlayer() {
  const a = state.playerAnswer
  state.selected = -1
  const table = $("player-moves")
  table.classList.remove("stale")
  const tbody = table.tBodies[0]
  tbody.replaceChildren()
  table.tFoot.replaceChildren()
  $("player-recent").replaceChildren()
  const p = state.player
  if (!a) {
    $("player-head").textContent = p.name ? "" : "Type a player's name, then pick it from the list."
    table.hidden = true
    return
  }
  const total = a.white + a.draws + a.black
  table.hidden = a.moves.length === 0
  renderPlayerHead(p, a.playerGames, total)
  for (const m of a.moves) {
    const n = m.white + m.draws + m.black
    const tr = document.createElement("tr")
    tr.dataset.uci = m.uci
    tr.dataset.fen = a.fen
    cell(tr, moveCell(m.san, m.opening, a.opening))
    const games = document.createElement("span")
    const sh = document.createElement("span")
    sh.className = "share"
    sh.textContent = ` (${share(n, total)})`
    games.append(n.toLocaleString(), sh)
    cell(tr, games, "count")
    cell(tr, bar(m.white, m.draws, m.black))
    cell(tr, m.averageOpponentRating ? String(m.averageOpponentRating) : "–")
    cell(tr, m.averageOpponentRating ? String(m.performance) : "–")
    const gc = cell(tr, "", "game-cell")
    if (m.game) {
      const g = playerGameRef(m.game)
      gc.textContent = `${g.white.name} – ${g.black.name}, ${g.result === "1/2-1/2" ? "½-½" : g.result} ${g.date}`
      gc.title = "open the game"
      gc.addEventListener("click", (ev) => { ev.stopPropagation(); openGame(g.id) })
    }
    tr.addEventListener("click", () => playUCI(m.uci, a.fen))
    hoverArrow(tr, m.uci)
    tbody.append(tr)
  }
  collapseMoves(table, a.moves.map((m) => m.white + m.draws + m.black), total)
  if (a.moves.length) {
    const tr = document.createElement("tr")
    cell(tr, "total")
    cell(tr, total.toLocaleString(), "count")
    cell(tr, bar(a.white, a.draws, a.black))
    cell(tr, ""); cell(tr, ""); cell(tr, "")
    table.tFoot.append(tr)
  }
  renderGameList($("player-recent"), a.recentGames.map(playerGameRef))
}

// renderPlayerHead says whose tree it is and how many of the player's
// games with the color (all: their number in the store) go on from the
// position (through: the tree's games), the name first, one figure a part:
// "Carlsen,M · 2,008 games with black · 413 of them (21%) through this
// position".
function renderPlayerHead(p, all, through) {
  const head = $("player-head")
  if (all === 0) {
    head.textContent = `No games of ${p.name} with ${p.color} in the store.`
    return
  }
  const name = document.createElement("strong")
  name.textContent = p.name
  const parts = [`${all.toLocaleString()} ${all === 1 ? "game" : "games"} with ${p.color}`]
  if (through === 0) parts.push("none through this position")
  else if (through < all) parts.push(`${through.toLocaleString()} of them (${share(through, all)}) through this position`)
  if (isFiltered()) parts.push("speeds, since and until filtered")
  head.replaceChildren(name, ...parts.map((t) => " · " + t))
}

// complete offers the spellings that contain the player box's text.
async function complete() {
  const my = ++completeSeq
  const text = $("player-name").value.trim()
  if (!/[\p{L}\p{N}]/u.test(text)) {
    renderComplete([], false)
    return
  }
  try {
    const a = await api.players(text)
    if (my !== completeSeq) return
    renderComplete(a.players.length ? a.players : (a.suggestions || []), !a.players.length)
  } catch (e) {
    if (my === completeSeq) renderComplete([], false)
  }
}

function renderComplete(names, closest) {
  const ul = $("player-complete")
  ul.replaceChildren()
  names.forEach((n, i) => {
    const li = document.createElement("li")
    li.setAttribute("role", "option")
    li.dataset.name = n.name
    if (i === 0) li.classList.add("active")
    const meta = document.createElement("div")
    meta.className = "meta"
    const dates = n.first === n.last ? n.first : `${n.first} – ${n.last}`
    meta.textContent = `${closest ? "closest name · " : ""}${n.white.toLocaleString()} with white, ${n.black.toLocaleString()} with black · ${dates}`
    li.append(n.name, meta)
    // mousedown, not click: the box's blur must not hide the list first.
    li.addEventListener("mousedown", (ev) => { ev.preventDefault(); pickPlayer(n.name) })
    ul.append(li)
  })
  ul.hidden = names.length === 0
  $("player-name").setAttribute("aria-expanded", String(!ul.hidden))
}

// pickPlayer shows name's tree.
function pickPlayer(name) {
  completeSeq++
  renderComplete([], false)
  state.player.name = name
  $("player-name").value = name
  writeURL(true)
  queryPlayer()
}

function setColor(color) {
  state.player.color = color
  showMode(state.mode)
  writeURL(true)
  queryPlayer()
}

// runSearch asks for page n of the search panel's form (params: the
// form's, read again when not given).
async function runSearch(page, params) {
  if (!params) {
    params = new URLSearchParams()
    const form = new FormData($("search-form"))
    for (const [k, v] of form) {
      if (k !== "here" && String(v).trim()) params.set(k, String(v).trim())
    }
    if (form.get("here")) for (const [k, v] of positionParams()) params.set(k, v)
    const f = state.filters
    if (f.speeds.length) params.set("speeds", f.speeds.join(","))
    if (f.ratings.length) params.set("ratings", f.ratings.join(","))
  }
  const my = ++searchSeq
  state.search = {params, page, answer: state.search && state.search.answer, loading: true}
  renderSearch()
  try {
    const a = await api.search(params, page)
    if (my !== searchSeq) return
    showError("")
    state.search = {params, page, answer: a, loading: false}
  } catch (e) {
    if (my !== searchSeq) return
    state.search = {params, page, answer: null, loading: false}
    showError(e.status === 503 ? `The server is busy reading games for others: try again in a moment (${e.message})` : e.message)
  }
  renderSearch()
}

// searchGameRef returns a game of a /search answer as gameItem takes it.
function searchGameRef(g) {
  return {id: g.id, white: {name: g.white, rating: g.white_elo}, black: {name: g.black, rating: g.black_elo}, result: g.result || "*",
    date: g.date, event: [g.event, g.eco, g.opening, g.plies + " plies"].filter(Boolean).join(" · ")}
}

function renderSearch() {
  const s = state.search
  const ul = $("search-list")
  ul.replaceChildren()
  const a = s && s.answer
  const pages = a ? Math.max(1, Math.ceil(a.total / a.per_page)) : 0
  let where = ""
  if (s && s.loading) where = `page ${s.page}: searching…`
  else if (a && a.total) where = `${a.total.toLocaleString()} games; page ${a.page} of ${pages}`
  else if (a) where = "No games found." + (a.suggestions && a.suggestions.length ? " Closest names: " + a.suggestions.map((n) => n.name).join(", ") : "")
  $("search-where").textContent = where
  if (a) for (const g of a.games) ul.append(gameItem(searchGameRef(g)))
  $("search-prev").disabled = !a || !s || s.loading || s.page <= 1
  $("search-next").disabled = !a || !s || s.loading || s.page >= pages
}

// The filters' controls, from and to state.filters.
function buildFilters() {
  const add = (fs, name, values, label) => {
    for (const v of values) {
      const l = document.createElement("label")
      const box = document.createElement("input")
      box.type = "checkbox"
      box.name = name
      box.value = v
      box.addEventListener("change", readFilters)
      l.append(box, " ", label(v))
      fs.append(l)
    }
  }
  add($("speeds"), "speed", SPEEDS, (v) => v)
  add($("ratings"), "rating", RATINGS, (v) => v === "2500" ? "2500+" : v)
  $("since").addEventListener("change", readFilters)
  $("until").addEventListener("change", readFilters)
  $("filters").addEventListener("toggle", checkFilterable, {once: true})
}

// checkFilterable greys out the speed or rating boxes when no game of the
// store can be selected by them (games without a TimeControl, as
// over-the-board games, have no speed; games without ratings no band),
// with the server's notice as the reason. It asks once, when the filters
// are first opened, so that first paint does not wait for it.
async function checkFilterable() {
  const probes = [["speeds", SPEEDS, "speed"], ["ratings", RATINGS, "rating"]]
  for (const [param, values, name] of probes) {
    try {
      const a = await getJSON(`/moves?${param}=${values.join(",")}&moves=1&topGames=0&recentGames=0`)
      if (a.white + a.draws + a.black + a.unknown > 0 || !(a.notices || []).length) continue
      const fs = $(param)
      fs.classList.add("unavailable")
      fs.title = "This store cannot answer these filters: " + a.notices.join("; ")
      for (const b of document.querySelectorAll(`input[name=${name}]`)) b.disabled = true
    } catch {
      // a failed probe leaves the boxes as they are
    }
  }
}

function readFilters() {
  const checked = (name) => [...document.querySelectorAll(`input[name=${name}]:checked`)].map((b) => b.value)
  state.filters = {speeds: checked("speed"), ratings: checked("rating"), since: $("since").value, until: $("until").value}
  showFilters()
  update(true)
}

function showFilters() {
  const f = state.filters
  for (const b of document.querySelectorAll("input[name=speed]")) b.checked = f.speeds.includes(b.value)
  for (const b of document.querySelectorAll("input[name=rating]")) b.checked = f.ratings.includes(b.value)
  $("since").value = f.since
  $("until").value = f.until
  const parts = [f.speeds.join(","), f.ratings.length ? "rating " + f.ratings.join(",") : "", f.since ? "since " + f.since : "", f.until ? "until " + f.until : ""]
  $("filter-summary").textContent = parts.filter(Boolean).join(" · ")
  if (isFiltered()) $("filters").open = true
}

// ---- 6. The forms and buttons ------------------------------------------

// fenReason returns the server's reason a FEN is bad, without the FEN
// (the box shows it already; the server's message quotes it).
function fenReason(msg, fen) {
  const parts = msg.split(JSON.stringify(fen))
  if (parts.length > 1) return parts[parts.length - 1].replace(/^[\s:]+/, "")
  return msg.replace(/"(?:[^"\\]|\\.)*"/g, "").replace(/^(bad FEN|board: fen)[\s:]*/g, "")
}

$("fen-form").addEventListener("submit", async (ev) => {
  ev.preventDefault()
  const fen = $("fen").value.trim()
  try {
    const a = await api.checkFEN(fen)
    new Chess(a.fen) // the board needs a position chess.js takes too
    state.rootFen = a.fen
    state.rootKey = a.key
    state.moves = []
    state.ply = 0
    state.game = null
    $("fen").blur()
    update(true)
  } catch (e) {
    showError(`This FEN cannot be read: ${fenReason(e.message, fen)}`)
  }
})

$("pgn-form").addEventListener("submit", (ev) => {
  ev.preventDefault()
  const text = $("pgn").value.trim()
  const c = new Chess()
  try {
    if (/^\s*\[/.test(text)) {
      c.loadPgn(text)
    } else {
      c.loadPgn(text.replace(/\b(1-0|0-1|1\/2-1\/2|\*)\s*$/, ""))
    }
  } catch (e) {
    showError(`Cannot read these moves: ${e.message}`)
    return
  }
  const hist = c.history({verbose: true})
  const first = hist.length ? hist[0].before : c.fen()
  state.rootFen = first === START ? START : first
  state.rootKey = ""
  state.moves = hist.map((m) => ({uci: uciOf(m), san: m.san}))
  state.ply = state.moves.length
  state.game = null
  $("pgn").blur()
  update(true)
})

// copyPGN copies the PGN box's text (the line) to the clipboard.
async function copyPGN() {
  const text = $("pgn").value
  let ok = false
  try {
    await navigator.clipboard.writeText(text)
    ok = true
  } catch {
    // No clipboard API (a page served over plain HTTP to another host):
    // the older way, from the selected text.
    $("pgn").select()
    ok = document.execCommand("copy")
  }
  $("pgn-copied").textContent = ok ? "copied" : "select the text and copy it"
}

$("pgn-copy").addEventListener("click", copyPGN)
$("first").addEventListener("click", () => step(() => 0))
$("back").addEventListener("click", () => step((p) => p - 1))
$("forward").addEventListener("click", () => step((p) => p + 1))
$("last").addEventListener("click", () => step((p, n) => n))
$("flip").addEventListener("click", flip)
$("game-close").addEventListener("click", closeGame)
$("games-more").addEventListener("click", () => { state.gamesLimit = MORE_GAMES; query() })
$("all-games-open").addEventListener("click", () => loadAllGames(1))
$("all-games-prev").addEventListener("click", () => loadAllGames(state.allGames.page - 1))
$("all-games-next").addEventListener("click", () => loadAllGames(state.allGames.page + 1))
$("all-games-close").addEventListener("click", () => { allSeq++; state.allGames = null; renderAllGames() })
for (const m of ["explorer", "player", "search"]) $("mode-" + m).addEventListener("click", () => setMode(m))
for (const c of ["white", "black"]) $("player-" + c).addEventListener("click", () => setColor(c))
let completeTimer = 0
$("player-name").addEventListener("input", () => { clearTimeout(completeTimer); completeTimer = setTimeout(complete, 120) })
$("player-name").addEventListener("blur", () => renderComplete([], false))
$("player-name").addEventListener("keydown", (ev) => {
  const items = [...$("player-complete").children]
  const at = items.findIndex((li) => li.classList.contains("active"))
  if ((ev.key === "ArrowDown" || ev.key === "ArrowUp") && items.length) {
    ev.preventDefault()
    const next = Math.max(0, Math.min(items.length - 1, at + (ev.key === "ArrowDown" ? 1 : -1)))
    items.forEach((li, i) => li.classList.toggle("active", i === next))
  } else if (ev.key === "Escape") {
    renderComplete([], false)
  }
})
$("player-form").addEventListener("submit", (ev) => {
  ev.preventDefault()
  const active = $("player-complete").querySelector("li.active")
  const name = active && !$("player-complete").hidden ? active.dataset.name : $("player-name").value.trim()
  if (name) pickPlayer(name)
})
$("search-form").addEventListener("submit", (ev) => { ev.preventDefault(); runSearch(1) })
$("search-form").querySelector("select[name=sort]").addEventListener("change", () => { if (state.search) runSearch(1) })
$("search-prev").addEventListener("click", () => runSearch(state.search.page - 1, state.search.params))
$("search-next").addEventListener("click", () => runSearch(state.search.page + 1, state.search.params))
$("help-open").addEventListener("click", () => showHelp(true))
$("help-close").addEventListener("click", () => showHelp(false))
$("help").addEventListener("click", (ev) => { if (ev.target === $("help")) showHelp(false) })

// ---- 7. The keys and their help ----------------------------------------

// KEYS are the page's keys: what the help lists is what the handler does.
const KEYS = [
  {keys: ["←"], names: ["ArrowLeft"], what: "back one move", run: () => step((p) => p - 1)},
  {keys: ["→"], names: ["ArrowRight"], what: "forward one move", run: () => step((p) => p + 1)},
  {keys: ["Home"], names: ["Home"], what: "to the start of the line", run: () => step(() => 0)},
  {keys: ["End"], names: ["End"], what: "to the end of the line (of the game)", run: () => step((p, n) => n)},
  {keys: ["↑", "↓"], names: ["ArrowUp", "ArrowDown"], what: "choose a move of the table (its arrow shows)", run: (ev) => selectMove(state.selected + (ev.key === "ArrowUp" ? -1 : 1))},
  {keys: ["Enter"], names: ["Enter"], what: "play the move chosen", run: () => { const tr = movesTable().tBodies[0].rows[state.selected]; if (tr) playUCI(tr.dataset.uci, tr.dataset.fen) }},
  {keys: ["f"], names: ["f"], what: "flip the board", run: flip},
  {keys: ["c"], names: ["c"], what: "copy the line's PGN", run: copyPGN},
  {keys: ["Esc"], names: ["Escape"], what: "close this help, else the game (back to your line)", run: () => { if (!$("help").hidden) showHelp(false); else if (state.game) closeGame() }},
  {keys: ["?"], names: ["?"], what: "show or hide this help", run: () => showHelp($("help").hidden)},
]

function buildHelp() {
  const table = $("help-keys")
  for (const k of KEYS) {
    const tr = document.createElement("tr")
    const keys = document.createElement("td")
    k.keys.forEach((name, i) => {
      const kbd = document.createElement("kbd")
      kbd.textContent = name
      keys.append(...(i ? [" ", kbd] : [kbd]))
    })
    tr.append(keys)
    cell(tr, k.what)
    table.append(tr)
  }
}

function showHelp(on) {
  if (!on && $("help").contains(document.activeElement)) document.activeElement.blur()
  $("help").hidden = !on
  if (on) $("help-close").focus()
}

document.addEventListener("keydown", (ev) => {
  const t = ev.target instanceof Element ? ev.target : document.body
  if (t.closest("input, textarea, select") || ev.ctrlKey || ev.metaKey || ev.altKey) return
  if (ev.key === "Enter" && t.closest("button, a, summary")) return
  const k = KEYS.find((k) => k.names.includes(ev.key))
  if (!k) return
  if (!$("help").hidden && ev.key !== "Escape" && ev.key !== "?") return
  ev.preventDefault()
  k.run(ev)
})

// ---- 8. The start --------------------------------------------------------

window.addEventListener("popstate", readURL)
buildFilters()
buildHelp()
readURL()
