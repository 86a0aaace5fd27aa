package livestock

// HoldingRef names a holding in a movement: by CPH, or (for an abattoir
// destination) by MHS. Exactly one of the two is set.
type HoldingRef struct {
	CPH CPH
	MHS MHS
}

// ParseHoldingRef reads a CPH, or a 4-digit MHS when allowMHS is true.
func ParseHoldingRef(s string, allowMHS bool) (HoldingRef, error) {
	if allowMHS && len(s) == 4 {
		m, err := ParseMHS(s)
		return HoldingRef{MHS: m}, err
	}
	c, err := ParseCPH(s)
	return HoldingRef{CPH: c}, err
}

func (h HoldingRef) String() string {
	if !h.MHS.IsZero() {
		return h.MHS.String()
	}
	return h.CPH.String()
}

// Device is one animal named in a movement: by its tag, in printed form,
// or, for a deer, which wears no ear tag Drover reads, by its freezebrand
// alone (Tag zero).
type Device struct {
	Tag         Tag
	RFID        RFID
	Freezebrand string
}

// BatchLine is a number of untagged animals moved under one batch number,
// or, for deer, under none (Number zero).
type BatchLine struct {
	Number BatchNumber
	Total  int
}

// MovementGroup is one group of a transfer's animals.
type MovementGroup struct {
	FromSubLocation, ToSubLocation, VendorHolding string
	Batches                                       []BatchLine
	Devices                                       []Device
	// Detailed is how many of Devices, at the end, the body listed in
	// devicesWithDetail rather than devices: their pointers name that list.
	Detailed int
}

// Transfer is a reported movement of animals from one holding to another,
// parsed: every identifier in it is valid. Whether it fits the registry's
// records is for CheckTransfer.
type Transfer struct {
	TransferDate Date
	SaleDate     Date   // of a sale through a market; zero when none is given
	SaleID       string // the market's reference of that sale; "" when none is given
	Species      Species
	UserHolding  HoldingRef
	Source       CPH
	Destination  HoldingRef
	AnimalCount  int
	Groups       []MovementGroup
	Flags        []string // processingFlags, by name
	// DocumentTotals are the animal totals a movement document states
	// (departed, received), each where it stood; each must equal the
	// devices plus the batch totals.
	DocumentTotals []Located[int]
}

// Devices lists the transfer's devices with the JSON pointer of each.
func (t Transfer) Devices() []Located[Device] {
	var out []Located[Device]
	for g, grp := range t.Groups {
		plain := len(grp.Devices) - grp.Detailed
		for i, d := range grp.Devices {
			if i < plain {
				out = append(out, Located[Device]{d, pointer("movementGroups", g, "devices", i)})
			} else {
				out = append(out, Located[Device]{d, pointer("movementGroups", g, "devicesWithDetail", i-plain, "device")})
			}
		}
	}
	return out
}

// Batches lists the transfer's batches with the JSON pointer of each.
func (t Transfer) Batches() []Located[BatchLine] {
	var out []Located[BatchLine]
	for g, grp := range t.Groups {
		for i, b := range grp.Batches {
			out = append(out, Located[BatchLine]{b, pointer("movementGroups", g, "batches", i)})
		}
	}
	return out
}

// Located is a value with the JSON pointer of where it stood in a request.
type Located[T any] struct {
	Value T
	At    string
}

// pointer builds "/content/a/0/b/1" from path elements.
func pointer(parts ...any) string {
	s := "/content"
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			s += "/" + v
		case int:
			s += "/" + itoa(v)
		}
	}
	return s
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
