//go:build oracle

package explorer

// heavySearches are searches whose cost grows with the store: names that
// most names contain ("a", "e"), an event most games have, with a rare
// position, by rating, deep pages.
var heavySearches = []string{
	"/search?player=a&perPage=500",
	"/search?player=a&moves=a3+a6+b3+b6+c3+c6",
	"/search?event=rated&perPage=200",
	"/search?player=e&sort=rating&perPage=500",
	"/search?white=a&black=e&page=3&perPage=500",
	"/search?player=a&event=game&result=1-0",
	"/players?name=a&limit=500",
	"/search?player=zzqqxx",
}
