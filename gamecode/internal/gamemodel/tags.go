package gamemodel

// knownTags are the tag names coded in one symbol. The list is part of the
// format: append only.
var knownTags = [...]string{
	"Event", "Site", "Date", "Round", "White", "Black", "Result",
	"WhiteElo", "BlackElo", "ECO", "TimeControl", "Termination",
	"UTCDate", "UTCTime", "WhiteRatingDiff", "BlackRatingDiff",
	"Opening", "Variant", "FEN", "SetUp", "EventDate", "WhiteTitle",
	"BlackTitle", "PlyCount", "Annotator", "Source", "Mode", "EventType",
	"EventRounds", "EventCountry", "WhiteFideId", "BlackFideId",
	"WhiteTeam", "BlackTeam", "Board", "Time", "SourceDate", "Stage",
	"Remark", "WhiteClock", "BlackClock", "Variation", "SubVariation",
	"GameId", "LichessURL", "Link", "WhiteType", "BlackType",
	"WhiteFideID", "BlackFideID", "EventSponsor", "Section", "TimeZone",
}

// Name symbols: NameEnd ends the tag list, NameLiteral introduces a name
// spelled out, NameKnown+i is knownTags[i].
const (
	NameEnd     = 0
	NameLiteral = 1
	NameKnown   = 2
	NumNameSyms = NameKnown + len(knownTags)
)

// Text classes: each has its own static byte model.
const (
	ClassText   = iota // events, sites, openings, anything else
	ClassPlayer        // player names
	ClassDate          // dates
	ClassNumber        // ratings, rounds, ids, counts
	ClassCode          // ECO, time controls, times, FEN
	NumClasses
)

// SymEnd ends a string in a byte model (symbols 0-255 are the bytes).
const SymEnd = 256

// TagClass returns the byte model class for the value of a tag name.
func TagClass(name string) int {
	switch name {
	case "White", "Black", "Annotator", "WhiteTeam", "BlackTeam":
		return ClassPlayer
	case "Date", "UTCDate", "EventDate", "SourceDate":
		return ClassDate
	case "WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff", "PlyCount",
		"WhiteFideId", "BlackFideId", "WhiteFideID", "BlackFideID", "Round", "Board", "EventRounds":
		return ClassNumber
	case "ECO", "TimeControl", "UTCTime", "Time", "FEN", "WhiteClock", "BlackClock":
		return ClassCode
	}
	return ClassText
}

// knownSyms maps the known tag names to their symbols.
var knownSyms = func() map[string]int {
	m := make(map[string]int, len(knownTags))
	for i, k := range knownTags {
		m[k] = NameKnown + i
	}
	return m
}()

// KnownIndex returns the symbol of a tag name, or NameLiteral.
func KnownIndex(name []byte) int {
	if sym, ok := knownSyms[string(name)]; ok {
		return sym
	}
	return NameLiteral
}

// NameOf returns the name of a known tag symbol, else "" (a literal
// name is none of the known ones).
func NameOf(sym int) string {
	if sym >= NameKnown {
		return knownTags[sym-NameKnown]
	}
	return ""
}

// NumCharCtx is the number of contexts of the byte models: the class of
// the previous byte (0 at the start of a string).
const NumCharCtx = 10

// CharCtx returns the context a byte sets for the next one.
func CharCtx(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return 1
	case c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y':
		return 2
	case c >= 'a' && c <= 'z':
		return 3
	case c >= '0' && c <= '9':
		return 4
	case c == ' ':
		return 5
	case c == '.':
		return 6
	case c == ',':
		return 7
	case c >= 0x80:
		return 8
	}
	return 9
}
