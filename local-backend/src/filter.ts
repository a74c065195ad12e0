/**
 * Filter expressions of `.filter()` (`$eq $neq $lt $lte $gt $gte $add $sub $mul $div $mod $neg
 * $and $or $not $field $literal`), evaluated against a document in Convex's total value order.
 */
import { compareValues, type Value } from "convex/values";
import { getFieldPath } from "./indexkey.js";
import { decodeQueryValue, type Doc } from "./json-shape.js";

type Expr = any;

function arith(op: string, a: Value | undefined, b: Value | undefined): Value {
  if (typeof a === "bigint" && typeof b === "bigint") {
    switch (op) {
      case "$add":
        return BigInt.asIntN(64, a + b);
      case "$sub":
        return BigInt.asIntN(64, a - b);
      case "$mul":
        return BigInt.asIntN(64, a * b);
      case "$div":
        if (b === 0n) throw new Error("Division by zero");
        return BigInt.asIntN(64, a / b);
      case "$mod":
        if (b === 0n) throw new Error("Division by zero");
        return a % b;
    }
  }
  if (typeof a === "number" && typeof b === "number") {
    switch (op) {
      case "$add":
        return a + b;
      case "$sub":
        return a - b;
      case "$mul":
        return a * b;
      case "$div":
        return a / b;
      case "$mod":
        return a % b;
    }
  }
  throw new Error(`Cannot apply ${op.slice(1)} to ${describeType(a)} and ${describeType(b)}`);
}

function describeType(v: unknown): string {
  if (v === undefined) return "undefined";
  if (v === null) return "null";
  if (typeof v === "bigint") return "int64";
  if (typeof v === "number") return "float64";
  if (v instanceof ArrayBuffer) return "bytes";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

export function evalExpr(expr: Expr, doc: Doc): Value | undefined {
  if (expr === null || typeof expr !== "object") throw new Error(`Invalid filter expression: ${JSON.stringify(expr)}`);
  if ("$field" in expr) return getFieldPath(doc, expr.$field);
  if ("$literal" in expr) return decodeQueryValue(expr.$literal);
  if ("$eq" in expr) return compareValues(evalExpr(expr.$eq[0], doc), evalExpr(expr.$eq[1], doc)) === 0;
  if ("$neq" in expr) return compareValues(evalExpr(expr.$neq[0], doc), evalExpr(expr.$neq[1], doc)) !== 0;
  if ("$lt" in expr) return compareValues(evalExpr(expr.$lt[0], doc), evalExpr(expr.$lt[1], doc)) < 0;
  if ("$lte" in expr) return compareValues(evalExpr(expr.$lte[0], doc), evalExpr(expr.$lte[1], doc)) <= 0;
  if ("$gt" in expr) return compareValues(evalExpr(expr.$gt[0], doc), evalExpr(expr.$gt[1], doc)) > 0;
  if ("$gte" in expr) return compareValues(evalExpr(expr.$gte[0], doc), evalExpr(expr.$gte[1], doc)) >= 0;
  if ("$and" in expr) return (expr.$and as Expr[]).every((e) => evalExpr(e, doc) === true);
  if ("$or" in expr) return (expr.$or as Expr[]).some((e) => evalExpr(e, doc) === true);
  if ("$not" in expr) return evalExpr(expr.$not, doc) !== true;
  if ("$neg" in expr) {
    const v = evalExpr(expr.$neg, doc);
    if (typeof v === "bigint") return BigInt.asIntN(64, -v);
    if (typeof v === "number") return -v;
    throw new Error(`Cannot negate ${describeType(v)}`);
  }
  for (const op of ["$add", "$sub", "$mul", "$div", "$mod"]) {
    if (op in expr) return arith(op, evalExpr(expr[op][0], doc), evalExpr(expr[op][1], doc));
  }
  throw new Error(`Invalid filter expression: ${JSON.stringify(expr)}`);
}
