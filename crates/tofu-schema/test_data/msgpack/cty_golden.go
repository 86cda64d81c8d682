// Prints the msgpack encodings cty (as OpenTofu 1.12 uses it) gives a set
// of values, one "name hex" line each, for tofu-schema's msgpack tests.
package main

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"os"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/msgpack"
)

type golden struct {
	name string
	val  cty.Value
	ty   cty.Type
}

func main() {
	bigInt, _ := new(big.Float).SetPrec(512).SetString("18446744073709551616")
	pointOne, _ := cty.ParseNumberVal("0.1")
	sixteen := make([]cty.Value, 16)
	for i := range sixteen {
		sixteen[i] = cty.NumberIntVal(int64(i))
	}
	cases := []golden{
		{"string", cty.StringVal("hello"), cty.String},
		{"string_empty", cty.StringVal(""), cty.String},
		{"string_31", cty.StringVal(strings.Repeat("a", 31)), cty.String},
		{"string_32", cty.StringVal(strings.Repeat("a", 32)), cty.String},
		{"string_300", cty.StringVal(strings.Repeat("b", 300)), cty.String},
		{"string_unicode", cty.StringVal("héllo ☃"), cty.String},
		{"int_0", cty.NumberIntVal(0), cty.Number},
		{"int_127", cty.NumberIntVal(127), cty.Number},
		{"int_128", cty.NumberIntVal(128), cty.Number},
		{"int_256", cty.NumberIntVal(256), cty.Number},
		{"int_65536", cty.NumberIntVal(65536), cty.Number},
		{"int_4294967296", cty.NumberIntVal(4294967296), cty.Number},
		{"int_minus_1", cty.NumberIntVal(-1), cty.Number},
		{"int_minus_32", cty.NumberIntVal(-32), cty.Number},
		{"int_minus_33", cty.NumberIntVal(-33), cty.Number},
		{"int_minus_129", cty.NumberIntVal(-129), cty.Number},
		{"int_minus_40000", cty.NumberIntVal(-40000), cty.Number},
		{"int_minus_3000000000", cty.NumberIntVal(-3000000000), cty.Number},
		{"int_max", cty.NumberIntVal(9223372036854775807), cty.Number},
		{"int_min", cty.NumberIntVal(-9223372036854775808), cty.Number},
		{"float_1_5", cty.NumberFloatVal(1.5), cty.Number},
		{"float_minus_0_25", cty.NumberFloatVal(-0.25), cty.Number},
		{"decimal_0_1", pointOne, cty.Number},
		{"decimal_2_pow_64", cty.NumberVal(bigInt), cty.Number},
		{"infinity", cty.PositiveInfinity, cty.Number},
		{"negative_infinity", cty.NegativeInfinity, cty.Number},
		{"true", cty.True, cty.Bool},
		{"false", cty.False, cty.Bool},
		{"null_string", cty.NullVal(cty.String), cty.String},
		{"unknown_string", cty.UnknownVal(cty.String), cty.String},
		{"unknown_string_not_null", cty.UnknownVal(cty.String).RefineNotNull(), cty.String},
		{"unknown_string_prefix", cty.UnknownVal(cty.String).Refine().NotNull().StringPrefixFull("ab").NewValue(), cty.String},
		{"unknown_number_bounds", cty.UnknownVal(cty.Number).Refine().NumberRangeLowerBound(cty.NumberIntVal(1), true).NumberRangeUpperBound(cty.NumberFloatVal(2.5), false).NewValue(), cty.Number},
		{"unknown_list_length", cty.UnknownVal(cty.List(cty.String)).Refine().CollectionLengthLowerBound(1).CollectionLengthUpperBound(3).NewValue(), cty.List(cty.String)},
		{"unknown_dynamic", cty.DynamicVal, cty.DynamicPseudoType},
		{"list", cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}), cty.List(cty.String)},
		{"list_empty", cty.ListValEmpty(cty.String), cty.List(cty.String)},
		{"list_16", cty.ListVal(sixteen), cty.List(cty.Number)},
		{"list_with_unknown", cty.ListVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)}), cty.List(cty.String)},
		{"set", cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}), cty.Set(cty.String)},
		{"map", cty.MapVal(map[string]cty.Value{"b": cty.NumberIntVal(2), "a": cty.NumberIntVal(1)}), cty.Map(cty.Number)},
		{"tuple", cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.True}), cty.Tuple([]cty.Type{cty.String, cty.Bool})},
		{"object", cty.ObjectVal(map[string]cty.Value{"b": cty.NullVal(cty.Number), "a": cty.StringVal("x")}), cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.Number})},
		{"object_null", cty.NullVal(cty.Object(map[string]cty.Type{"a": cty.String})), cty.Object(map[string]cty.Type{"a": cty.String})},
		{"dynamic_string", cty.StringVal("x"), cty.DynamicPseudoType},
		{"dynamic_list", cty.ListVal([]cty.Value{cty.StringVal("a")}), cty.DynamicPseudoType},
		{"dynamic_object", cty.ObjectVal(map[string]cty.Value{"z": cty.NumberIntVal(1), "a": cty.True}), cty.DynamicPseudoType},
		{"dynamic_tuple", cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NumberIntVal(1)}), cty.DynamicPseudoType},
		{"dynamic_null_string", cty.NullVal(cty.String), cty.DynamicPseudoType},
		{"dynamic_null", cty.NullVal(cty.DynamicPseudoType), cty.DynamicPseudoType},
		{"dynamic_unknown_string", cty.UnknownVal(cty.String), cty.DynamicPseudoType},
		{"dynamic_in_object", cty.ObjectVal(map[string]cty.Value{"v": cty.NumberIntVal(3)}), cty.Object(map[string]cty.Type{"v": cty.DynamicPseudoType})},
		{"nested_blocks", cty.ObjectVal(map[string]cty.Value{
			"name": cty.StringVal("web"),
			"rule": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(443)})}),
			"tags": cty.NullVal(cty.Map(cty.String)),
		}), cty.Object(map[string]cty.Type{
			"name": cty.String,
			"rule": cty.List(cty.Object(map[string]cty.Type{"port": cty.Number})),
			"tags": cty.Map(cty.String),
		})},
	}
	for _, c := range cases {
		b, err := msgpack.Marshal(c.val, c.ty)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %s\n", c.name, err)
			os.Exit(1)
		}
		fmt.Printf("%s %s\n", c.name, hex.EncodeToString(b))
	}
}
