package livestock

// Role says what a user may do across the registry.
type Role string

const (
	// RoleKeeper acts for, and reads, the holdings listed on their record.
	RoleKeeper Role = "keeper"
	// RoleInspector reads every holding and acts for none.
	RoleInspector Role = "inspector"
)

// HoldingType is the kind of premises a holding is.
type HoldingType string

const (
	HoldingAbattoir         HoldingType = "abattoir"
	HoldingAssemblyCentre   HoldingType = "assemblyCentre"
	HoldingCollectionCentre HoldingType = "collectionCentre"
	HoldingCommonLand       HoldingType = "commonLand"
	HoldingProducer         HoldingType = "producer"
	HoldingSaleYard         HoldingType = "saleYard"
	HoldingShowground       HoldingType = "showground"
)

// HoldingTypes lists the holding types in the order the sandbox gives them.
var HoldingTypes = []HoldingType{
	HoldingAbattoir, HoldingAssemblyCentre, HoldingCollectionCentre, HoldingCommonLand,
	HoldingProducer, HoldingSaleYard, HoldingShowground,
}

// Valid reports whether t is one of HoldingTypes.
func (t HoldingType) Valid() bool {
	for _, v := range HoldingTypes {
		if v == t {
			return true
		}
	}
	return false
}

// Holding is a registered premises. MHS is set for an abattoir that has one.
type Holding struct {
	CPH  CPH
	Type HoldingType
	MHS  MHS
	Name string // the property's name, as Holdings/ValidHoldings gives it; "" when none is known
}

// User is someone who signs in: a keeper acting for their holdings, or an
// inspector reading everything.
type User struct {
	ID       int64
	Name     string // the userName shown on requests
	Subject  string // the token subject that maps to this user
	Role     Role
	Holdings []Holding // the holdings this user may act for
}

// CanActFor reports whether u may submit on behalf of holding h.
func (u User) CanActFor(h CPH) bool {
	if u.Role != RoleKeeper {
		return false
	}
	for _, x := range u.Holdings {
		if x.CPH == h {
			return true
		}
	}
	return false
}

// CanActForMHS reports whether u keeps the abattoir with MHS m.
func (u User) CanActForMHS(m MHS) bool {
	if u.Role != RoleKeeper || m.IsZero() {
		return false
	}
	for _, x := range u.Holdings {
		if x.MHS == m {
			return true
		}
	}
	return false
}

// CanRead reports whether u may see records about holding h.
func (u User) CanRead(h CPH) bool {
	return u.Role == RoleInspector || u.CanActFor(h)
}
