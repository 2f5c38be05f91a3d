package book

// The Polyglot key of a position XORs numbers of a table of 781 (piece on
// square, castling right, en passant file, side to move). The format fixed
// that table as the first 781 outputs of Bob Jenkins's ISAAC-64 generator
// from an all-zero seed; the generator below (his public-domain
// algorithm, written from its description) makes it, and the tests check
// it against keys every Polyglot book is built with.

const isaacSize = 256

type isaac64 struct {
	mem     [isaacSize]uint64
	rsl     [isaacSize]uint64
	a, b, c uint64
	count   int
}

func isaacMix(x *[8]uint64) {
	a, b, c, d, e, f, g, h := x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]
	a -= e
	f ^= h >> 9
	h += a
	b -= f
	g ^= a << 9
	a += b
	c -= g
	h ^= b >> 23
	b += c
	d -= h
	a ^= c << 15
	c += d
	e -= a
	b ^= d >> 14
	d += e
	f -= b
	c ^= e << 20
	e += f
	g -= c
	d ^= f >> 17
	f += g
	h -= d
	e ^= g << 14
	g += h
	*x = [8]uint64{a, b, c, d, e, f, g, h}
}

// newISAAC64 seeds the generator with zeros (randinit with the seed flag
// set: two mixing passes over the seed and the memory).
func newISAAC64() *isaac64 {
	r := &isaac64{}
	var x [8]uint64
	for i := range x {
		x[i] = 0x9e3779b97f4a7c13 // the golden ratio
	}
	for range 4 {
		isaacMix(&x)
	}
	for pass := 0; pass < 2; pass++ {
		src := &r.rsl
		if pass == 1 {
			src = &r.mem
		}
		for i := 0; i < isaacSize; i += 8 {
			for j := range x {
				x[j] += src[i+j]
			}
			isaacMix(&x)
			copy(r.mem[i:i+8], x[:])
		}
	}
	r.generate()
	r.count = isaacSize
	return r
}

// generate fills rsl with the next 256 results.
func (r *isaac64) generate() {
	r.c++
	a, b := r.a, r.b+r.c
	m := &r.mem
	for i := 0; i < isaacSize; i++ {
		switch i % 4 {
		case 0:
			a = ^(a ^ a<<21)
		case 1:
			a ^= a >> 5
		case 2:
			a ^= a << 12
		case 3:
			a ^= a >> 33
		}
		x := m[i]
		a += m[(i+isaacSize/2)%isaacSize]
		y := m[(x>>3)%isaacSize] + a + b
		m[i] = y
		b = m[(y>>11)%isaacSize] + x
		r.rsl[i] = b
	}
	r.a, r.b = a, b
}

// next returns the next number, the results of each round read from the
// last to the first (as the reference's rand macro does).
func (r *isaac64) next() uint64 {
	if r.count == 0 {
		r.generate()
		r.count = isaacSize
	}
	r.count--
	return r.rsl[r.count]
}

// randoms is the table of Polyglot's keys.
var randoms = func() [781]uint64 {
	var t [781]uint64
	r := newISAAC64()
	for i := range t {
		t[i] = r.next()
	}
	return t
}()
