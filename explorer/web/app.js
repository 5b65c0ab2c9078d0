// The explorer page: a board (cm-chessboard), the rules (chess.js), and the
// server's API (its routes: docs/http-api.md).
//
// The state is a root position, the moves played from it and how many of
// them are on the board (the cursor); the URL holds them (root: the root's
// key unless it is the start position, play: UCI moves, ply: the cursor
// when not at the end, pos: the key of the position on the board, and the
// filters), so a link reopens the same position and back and forward work.
import {Chessboard, INPUT_EVENT_TYPE, COLOR, Markers, MARKER_TYPE, Chess} from "./vendor/bundle.js"

const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
const SPEEDS = ["ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"]
const RATINGS = ["0", "1000", "1200", "1400", "1600", "1800", "2000", "2200", "2500"]

const $ = (id) => document.getElementById(id)
const state = {
  rootFen: START, rootKey: "", moves: [], ply: 0, // moves: [{uci, san}]
  filters: {speeds: [], ratings: [], since: "", until: ""},
  game: null, // the open game: {id, fen, moves: [{uci, san}], ply}
  answer: null, // the last /moves answer
}
let seq = 0 // the latest request; older answers are dropped
let bookShown = true // false once the server says it has no Polyglot book

const board = new Chessboard($("board"), {
  position: START,
  assetsUrl: "/static/vendor/cm-chessboard/assets/",
  style: {pieces: {file: "pieces/standard.svg"}, animationDuration: 150},
  extensions: [{class: Markers}],
})
board.enableMoveInput(onBoardInput)

// chessAt returns a chess.js game at the root with the first n moves played.
function chessAt(fen, moves, n) {
  const c = new Chess(fen)
  for (let i = 0; i < n; i++) c.move(moves[i].uci.length > 4 ? {from: moves[i].uci.slice(0, 2), to: moves[i].uci.slice(2, 4), promotion: moves[i].uci[4]} : {from: moves[i].uci.slice(0, 2), to: moves[i].uci.slice(2, 4)})
  return c
}

function uciOf(m) { return m.from + m.to + (m.promotion || "") }

function onBoardInput(event) {
  if (event.type === INPUT_EVENT_TYPE.moveInputStarted) {
    const c = currentChess()
    return c.moves({square: event.squareFrom}).length > 0
  }
  if (event.type !== INPUT_EVENT_TYPE.validateMoveInput) return true
  const c = currentChess()
  let m
  try {
    m = c.move({from: event.squareFrom, to: event.squareTo, promotion: "q"})
  } catch {
    return false
  }
  if (state.game) closeGame(false)
  playMove({uci: uciOf(m), san: m.san})
  return true
}

function currentChess() {
  if (state.game) return chessAt(state.game.fen, state.game.moves, state.game.ply)
  return chessAt(state.rootFen, state.moves, state.ply)
}

// playMove plays m at the cursor: the next move of the line if it is the
// same, else the line is cut there and goes on with m.
function playMove(m) {
  if (state.moves[state.ply] && state.moves[state.ply].uci === m.uci) {
    state.ply++
  } else {
    state.moves = state.moves.slice(0, state.ply).concat([m])
    state.ply = state.moves.length
  }
  update(true)
}

function step(to) {
  if (state.game) {
    state.game.ply = Math.max(0, Math.min(state.game.moves.length, to(state.game.ply, state.game.moves.length)))
    showGame()
    return
  }
  const ply = Math.max(0, Math.min(state.moves.length, to(state.ply, state.moves.length)))
  if (ply !== state.ply) {
    state.ply = ply
    update(true)
  }
}

// update shows the state: the board, the line, the URL (pushed when push),
// then asks the server about the position.
function update(push) {
  const c = currentChess()
  board.setPosition(c.fen(), true)
  markLastMove(state.moves[state.ply - 1])
  $("fen").value = c.fen()
  renderLine($("line"), state.moves, state.ply, (i) => { state.ply = i; update(true) })
  writeURL(push)
  query()
}

function markLastMove(m) {
  board.removeMarkers(MARKER_TYPE.square)
  if (m) {
    board.addMarker(MARKER_TYPE.square, m.uci.slice(0, 2))
    board.addMarker(MARKER_TYPE.square, m.uci.slice(2, 4))
  }
}

function renderLine(el, moves, ply, go, startFen) {
  el.replaceChildren()
  const fen = startFen || state.rootFen
  let number = parseInt(fen.split(" ")[5] || "1", 10)
  let white = fen.split(" ")[1] !== "b"
  moves.forEach((m, i) => {
    if (white || i === 0) {
      const n = document.createElement("span")
      n.className = "num"
      n.textContent = number + (white ? "." : "...")
      el.append(n, " ")
    }
    const s = document.createElement("span")
    s.className = "san" + (i + 1 === ply ? " current" : "")
    s.textContent = m.san
    s.dataset.ply = String(i + 1)
    s.addEventListener("click", () => go(i + 1))
    el.append(s, " ")
    if (!white) number++
    white = !white
  })
}

function filterParams(p) {
  const f = state.filters
  if (f.speeds.length) p.set("speeds", f.speeds.join(","))
  if (f.ratings.length) p.set("ratings", f.ratings.join(","))
  if (f.since) p.set("since", f.since)
  if (f.until) p.set("until", f.until)
  return p
}

function positionParams() {
  const p = new URLSearchParams()
  if (state.rootFen !== START) p.set("fen", state.rootFen)
  const play = state.moves.slice(0, state.ply).map((m) => m.uci).join(",")
  if (play) p.set("play", play)
  return p
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
  filterParams(u)
  const url = "?" + u.toString()
  if (url === location.search) return
  if (push) history.pushState(null, "", url)
  else history.replaceState(null, "", url)
}

async function getJSON(url) {
  const early = window.chessbookEarly
  window.chessbookEarly = null
  const r = await (early && early.url === url ? early.answer : fetch(url))
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

function showError(msg) {
  $("error").textContent = msg
  $("error").hidden = !msg
}

async function query() {
  const my = ++seq
  const p = positionParams()
  filterParams(p)
  try {
    const answer = await getJSON("/moves?" + p.toString())
    if (my !== seq) return
    showError("")
    state.answer = answer
    if (state.ply === 0) state.rootKey = answer.key
    writeURL(false)
    renderMoves(answer)
    if (!window.chessbookFirstPaint) window.chessbookFirstPaint = performance.now()
  } catch (e) {
    if (my === seq) showError(e.message)
  }
  if (bookShown) {
    try {
      const b = await getJSON("/polyglot?" + positionParams().toString())
      if (my === seq) renderBook(b)
    } catch (e) {
      if (e.status === 404) {
        bookShown = false
        $("book").hidden = true
      }
    }
  }
}

function pct(n, of) { return of ? (100 * n / of) : 0 }

function bar(w, d, b) {
  const n = w + d + b
  const el = document.createElement("div")
  el.className = "bar"
  for (const [cls, v] of [["w", w], ["d", d], ["b", b]]) {
    const s = document.createElement("span")
    s.className = cls
    const p = pct(v, n)
    s.style.width = p + "%"
    s.textContent = p >= 12 ? p.toFixed(0) + "%" : ""
    s.title = `${v} (${p.toFixed(1)}%)`
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

function renderMoves(a) {
  const o = a.opening
  const op = $("opening")
  op.replaceChildren()
  if (o) {
    const eco = document.createElement("span")
    eco.className = "eco"
    eco.textContent = o.eco
    op.append(eco, o.name)
  }
  const total = a.white + a.draws + a.black + a.unknown
  const tbody = $("moves").tBodies[0]
  tbody.replaceChildren()
  for (const m of a.moves) {
    const tr = document.createElement("tr")
    tr.dataset.uci = m.uci
    const name = document.createElement("span")
    name.className = "name"
    name.textContent = m.opening ? m.opening.name : ""
    const mv = document.createElement("span")
    mv.append(m.san, name)
    cell(tr, mv)
    const games = document.createElement("span")
    const share = document.createElement("span")
    share.className = "share"
    share.textContent = ` (${pct(m.games, total).toFixed(0)}%)`
    games.append(m.games.toLocaleString(), share)
    cell(tr, games)
    cell(tr, bar(m.white, m.draws, m.black))
    cell(tr, m.averageRating ? String(m.averageRating) : "–")
    cell(tr, m.performance != null ? String(m.performance) : "–")
    cell(tr, m.lastPlayed || "–")
    tr.addEventListener("click", () => { if (state.game) closeGame(false); playMove({uci: m.uci, san: m.san}) })
    tbody.append(tr)
  }
  const tfoot = $("moves").tFoot
  tfoot.replaceChildren()
  if (a.moves.length) {
    const tr = document.createElement("tr")
    cell(tr, "total")
    cell(tr, total.toLocaleString())
    cell(tr, bar(a.white, a.draws, a.black))
    cell(tr, ""); cell(tr, ""); cell(tr, "")
    tfoot.append(tr)
  }
  const empty = $("empty")
  empty.hidden = a.moves.length > 0
  empty.textContent = a.moves.length ? "" : (filtered() ? "No game the filters select goes on from this position." : "No game in the book goes on from this position.")
  renderGames($("top-games"), a.topGames)
  renderGames($("recent-games"), a.recentGames)
}

function filtered() {
  const f = state.filters
  return f.speeds.length || f.ratings.length || f.since || f.until
}

function renderGames(ul, games) {
  ul.replaceChildren()
  if (!games.length) {
    const li = document.createElement("li")
    li.className = "meta"
    li.textContent = "none"
    ul.append(li)
  }
  for (const g of games) {
    const li = document.createElement("li")
    li.dataset.id = g.id
    const who = (p) => p.name + (p.rating ? ` (${p.rating})` : "")
    const res = document.createElement("span")
    res.className = "res"
    res.textContent = g.result === "1/2-1/2" ? "½-½" : g.result
    const meta = document.createElement("div")
    meta.className = "meta"
    meta.textContent = [g.date || g.year, g.event].filter(Boolean).join(" · ")
    li.append(who(g.white), res, who(g.black), meta)
    li.addEventListener("click", () => openGame(g.id))
    ul.append(li)
  }
}

function renderBook(b) {
  $("book").hidden = false
  $("book-name").textContent = b.book
  const tbody = $("book").querySelector("tbody")
  tbody.replaceChildren()
  if (!b.moves.length) {
    const tr = document.createElement("tr")
    cell(tr, "not in the book").colSpan = 3
    tbody.append(tr)
  }
  for (const m of b.moves) {
    const tr = document.createElement("tr")
    cell(tr, m.san); cell(tr, String(m.weight)); cell(tr, m.percent.toFixed(1))
    tbody.append(tr)
  }
}

async function openGame(id) {
  try {
    const g = await getJSON("/game/" + id)
    const fen = g.fen || START
    const c = new Chess(fen)
    const moves = g.moves.map((san) => { const m = c.move(san); return {uci: uciOf(m), san: m.san} })
    // Open the game where it reaches the position on the board.
    const here = currentChess().fen().split(" ").slice(0, 4).join(" ")
    let ply = 0
    const r = new Chess(fen)
    for (let i = 0; i <= moves.length; i++) {
      if (r.fen().split(" ").slice(0, 4).join(" ") === here) { ply = i; break }
      if (i < moves.length) r.move(moves[i].san)
    }
    state.game = {id, fen, moves, ply, info: g}
    $("game").hidden = false
    $("game-title").textContent = `${g.white.name} – ${g.black.name}, ${g.result}`
    $("game-download").href = `/game/${id}?format=pgn`
    $("game-download").download = `${id}.pgn`
    const tags = $("game-tags")
    tags.replaceChildren()
    for (const t of g.tags) {
      const tr = document.createElement("tr")
      cell(tr, t.name); cell(tr, t.value)
      tags.append(tr)
    }
    showGame()
    $("game").scrollIntoView({block: "nearest"})
  } catch (e) {
    showError(e.message)
  }
}

function showGame() {
  const g = state.game
  const c = chessAt(g.fen, g.moves, g.ply)
  board.setPosition(c.fen(), true)
  markLastMove(g.moves[g.ply - 1])
  renderLine($("game-moves"), g.moves, g.ply, (i) => { g.ply = i; showGame() }, g.fen)
}

function closeGame(show) {
  state.game = null
  $("game").hidden = true
  if (show) update(false)
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
  if (filtered()) $("filters").open = true
}

// readURL sets the state from the page's URL.
async function readURL() {
  const u = new URLSearchParams(location.search)
  const list = (k) => (u.get(k) || "").split(",").filter(Boolean)
  state.filters = {speeds: list("speeds"), ratings: list("ratings"), since: u.get("since") || "", until: u.get("until") || ""}
  showFilters()
  let fen = u.get("fen") || START
  state.rootKey = ""
  try {
    const code = u.get("root") || (!u.get("play") && !u.get("fen") ? u.get("pos") : "")
    if (code) {
      const p = await getJSON("/position/" + encodeURIComponent(code))
      fen = p.fen
      state.rootKey = p.key
    }
    const c = new Chess(fen)
    const moves = []
    for (const uci of list("play")) {
      const m = c.move({from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4]})
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
  if (state.game) closeGame(false)
  update(false)
}

$("fen-form").addEventListener("submit", async (ev) => {
  ev.preventDefault()
  const fen = $("fen").value.trim()
  try {
    const a = await getJSON("/moves?" + new URLSearchParams({fen, topGames: "0", recentGames: "0"}).toString())
    new Chess(a.fen) // the board needs a position chess.js takes too
    state.rootFen = a.fen
    state.rootKey = a.key
    state.moves = []
    state.ply = 0
    if (state.game) closeGame(false)
    update(true)
  } catch (e) {
    showError(`Bad FEN: ${e.message}`)
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
  if (state.game) closeGame(false)
  update(true)
})

$("first").addEventListener("click", () => step(() => 0))
$("back").addEventListener("click", () => step((p) => p - 1))
$("forward").addEventListener("click", () => step((p) => p + 1))
$("last").addEventListener("click", () => step((p, n) => n))
$("flip").addEventListener("click", flip)
$("game-close").addEventListener("click", () => closeGame(true))

function flip() {
  board.setOrientation(board.getOrientation() === COLOR.white ? COLOR.black : COLOR.white)
}

document.addEventListener("keydown", (ev) => {
  if (ev.target.closest("input, textarea, select")) return
  const keys = {ArrowLeft: (p) => p - 1, ArrowRight: (p) => p + 1, Home: () => 0, End: (p, n) => n}
  if (keys[ev.key]) {
    ev.preventDefault()
    step(keys[ev.key])
  } else if (ev.key === "f") {
    flip()
  } else if (ev.key === "Escape" && state.game) {
    closeGame(true)
  }
})

window.addEventListener("popstate", readURL)
buildFilters()
readURL()
