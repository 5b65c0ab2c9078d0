package gamecode

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

// Name symbols: nameEnd ends the tag list, nameLiteral introduces a name
// spelled out, nameKnown+i is knownTags[i].
const (
	nameEnd     = 0
	nameLiteral = 1
	nameKnown   = 2
	numNameSyms = nameKnown + len(knownTags)
)

// Text classes: each has its own static byte model.
const (
	classText   = iota // events, sites, openings, anything else
	classPlayer        // player names
	classDate          // dates
	classNumber        // ratings, rounds, ids, counts
	classCode          // ECO, time controls, times, FEN
	numClasses
)

// symEnd ends a string in a byte model (symbols 0-255 are the bytes).
const symEnd = 256

// tagClass returns the byte model class for the value of a tag name.
func tagClass(name string) int {
	switch name {
	case "White", "Black", "Annotator", "WhiteTeam", "BlackTeam":
		return classPlayer
	case "Date", "UTCDate", "EventDate", "SourceDate":
		return classDate
	case "WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff", "PlyCount",
		"WhiteFideId", "BlackFideId", "WhiteFideID", "BlackFideID", "Round", "Board", "EventRounds":
		return classNumber
	case "ECO", "TimeControl", "UTCTime", "Time", "FEN", "WhiteClock", "BlackClock":
		return classCode
	}
	return classText
}

// knownSyms maps the known tag names to their symbols.
var knownSyms = func() map[string]int {
	m := make(map[string]int, len(knownTags))
	for i, k := range knownTags {
		m[k] = nameKnown + i
	}
	return m
}()

// knownIndex returns the symbol of a tag name, or nameLiteral.
func knownIndex(name []byte) int {
	if sym, ok := knownSyms[string(name)]; ok {
		return sym
	}
	return nameLiteral
}

// nameOf returns the name of a known tag symbol, else "" (a literal
// name is none of the known ones).
func nameOf(sym int) string {
	if sym >= nameKnown {
		return knownTags[sym-nameKnown]
	}
	return ""
}

// numCharCtx is the number of contexts of the byte models: the class of
// the previous byte (0 at the start of a string).
const numCharCtx = 10

// charCtx returns the context a byte sets for the next one.
func charCtx(c byte) int {
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
