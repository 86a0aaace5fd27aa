package livestock

import (
	"fmt"
	"strconv"
	"strings"
)

// RFID is the number in an animal's electronic identifier (ISO 11784): a
// country code and a 38-bit national id. The 64-bit code also carries flags
// (animal, retag counter, user information, data block); they say nothing
// about which animal it is, so they are read and dropped, and two RFIDs for
// the same animal compare equal with ==. The value holds the decimal form,
// 0826012345600001. The zero value is "no RFID".
type RFID struct{ s string }

const (
	ukCountry = 826
	// nationalIDLimit is 2^38: a national id has 38 bits.
	nationalIDLimit = 1 << 38
	// hexFlags are the top 16 bits Hex writes: the animal flag (bit 1) and
	// user information 4 (bits 5 to 9 = 00100, so bit 7), as the live
	// service's example 8200ce82dfdae801 has them. Retag counter, reserved
	// bits and data-block flag are 0.
	hexFlags = 0x8200

	rfidRule = "16 hexadecimal digits, the decimal form 0826 then 12 digits (e.g. 0826012345600001), or the printed UK tag form (e.g. UK0123456 00001)"
)

// ParseRFID accepts the three forms the movements interface allows:
//
//   - 16 hexadecimal digits, either case: the 64-bit code, most significant
//     bit first (8200ce82dfdae801). Flags are ignored.
//   - decimal: 4-digit country code and 12-digit national id
//     (0826012345600001), or 15 digits without the leading zero.
//   - the UK printed tag form, UK then 7 digits, an optional space and 5
//     digits (UK0123456 00001); the goat form with a 6-digit herd mark
//     (UK123456 00001) is read with the prefix 0, as GoatTag reads it.
//
// 16 decimal digits starting with 0 are read as decimal, never as hex.
func ParseRFID(s string) (RFID, error) {
	switch {
	case strings.HasPrefix(s, "UK"):
		flock, ind, ok := parseFlockTag(s, true)
		if !ok {
			return RFID{}, formatError("RFID", s, rfidRule)
		}
		return newRFID(ukCountry, uint64(atoi(flock+ind))), nil
	case (len(s) == 15 || len(s) == 16 && s[0] == '0') && allDigits(s):
		country, id := atoi(s[:len(s)-12]), uint64(atoi(s[len(s)-12:]))
		if id >= nationalIDLimit {
			return RFID{}, ruleError(CodeBadFormat, "RFID", s,
				fmt.Sprintf("the national id %s does not fit 38 bits (it must be below %d)", s[len(s)-12:], uint64(nationalIDLimit)))
		}
		return newRFID(country, id), nil
	case len(s) == 16:
		v, err := strconv.ParseUint(s, 16, 64)
		if err != nil {
			break
		}
		country := int(v>>38) & 0x3ff
		if country > 999 {
			return RFID{}, ruleError(CodeBadFormat, "RFID", s,
				fmt.Sprintf("the country code %d is above 999", country))
		}
		return newRFID(country, v&(nationalIDLimit-1)), nil
	}
	return RFID{}, formatError("RFID", s, rfidRule)
}

// newRFID makes the value from parts the caller has checked: country 0 to
// 999, id below 2^38.
func newRFID(country int, id uint64) RFID {
	return RFID{fmt.Sprintf("%04d%012d", country, id)}
}

func (r RFID) IsZero() bool { return r.s == "" }

// Equal reports whether r and o name the same animal, as == does; go-cmp
// uses it to compare the unexported field.
func (r RFID) Equal(o RFID) bool { return r == o }

// String is the decimal form.
func (r RFID) String() string { return r.s }

// Decimal is the country code with a leading zero and the 12-digit national
// id: 0826012345600001.
func (r RFID) Decimal() string { return r.s }

// Country is the ISO 3166 numeric country code (826 for the UK).
func (r RFID) Country() int {
	if r.s == "" {
		return 0
	}
	return atoi(r.s[:4])
}

// NationalID is the 38-bit national id.
func (r RFID) NationalID() uint64 {
	if r.s == "" {
		return 0
	}
	return uint64(atoi(r.s[4:]))
}

// Hex is the 64-bit code as 16 lower-case hexadecimal digits, with the flags
// of the live service's example (see hexFlags): 8200ce82dfdae801 for
// UK0123456 00001. It is "" for the zero RFID.
func (r RFID) Hex() string {
	if r.s == "" {
		return ""
	}
	v := uint64(hexFlags)<<48 | uint64(r.Country())<<38 | r.NationalID()
	return fmt.Sprintf("%016x", v)
}

// Printed is the UK printed tag form, UK0123456 00001; ok is false for
// another country, and for a national id that no sheep or goat tag carries
// (one of 12 digits whose first is not 0 or 1), so that whatever Printed
// gives, ParseRFID, ParseSheepTag and ParseGoatTag all read back.
func (r RFID) Printed() (string, bool) {
	if r.Country() != ukCountry || r.s[4] > '1' {
		return "", false
	}
	return "UK" + r.s[4:11] + " " + r.s[11:16], true
}

func (r RFID) MarshalText() ([]byte, error) { return []byte(r.s), nil }

func (r *RFID) UnmarshalText(b []byte) error {
	v, err := ParseRFID(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}
