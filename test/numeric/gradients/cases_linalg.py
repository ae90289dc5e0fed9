"""gradcheck cases: MatMul, Gemm, Einsum (RulesLinalg.cpp)."""
import numpy as np

from gradcheck import C, Case, In, X

CASES = []


def add(*a, **k):
    CASES.append(Case(*a, **k))


# MatMul: 2-D, batched with broadcasting both ways, 1-D operands.
add("matmul_2d", "MatMul", [X([3, 4]), X([4, 5])])
add("matmul_batched", "MatMul", [X([2, 3, 4]), X([2, 4, 5])])
add("matmul_bcast_b", "MatMul", [X([2, 3, 4]), X([4, 5])])
add("matmul_bcast_a", "MatMul", [X([3, 4]), X([2, 4, 5])], sym={1: {0: "N"}})
add("matmul_bcast_4d", "MatMul", [X([2, 1, 3, 4]), X([3, 4, 2])])
add("matmul_vec_mat", "MatMul", [X([4]), X([2, 4, 3])], sym={1: {0: "N"}})
add("matmul_mat_vec", "MatMul", [X([2, 3, 4]), X([4])])
add("matmul_dot", "MatMul", [X([5]), X([5])])
add("matmul_large", "MatMul", [X([8, 16]), X([16, 12])])
add("matmul_weight_only", "MatMul", [In(np.random.default_rng(1)
                                        .standard_normal((3, 4))),
                                     X([4, 2])])

# Gemm: every transA/transB, alpha and beta, C of each broadcastable shape.
for ta in (0, 1):
    for tb in (0, 1):
        a = [4, 3] if ta else [3, 4]
        b = [5, 4] if tb else [4, 5]
        add("gemm_t%d%d" % (ta, tb), "Gemm", [X(a), X(b), X([3, 5])],
            {"transA": ta, "transB": tb, "alpha": 0.7, "beta": 1.3},
            sym={0: {1 if ta else 0: "N"}, 2: {0: "N"}})
add("gemm_bias_row", "Gemm", [X([3, 4]), X([4, 5]), X([5])])
add("gemm_bias_1n", "Gemm", [X([3, 4]), X([4, 5]), X([1, 5])])
add("gemm_bias_m1", "Gemm", [X([3, 4]), X([4, 5]), X([3, 1])],
    {"beta": 0.5})
add("gemm_bias_scalar", "Gemm", [X([3, 4]), X([4, 5]), X([])])
add("gemm_no_bias", "Gemm", [X([3, 4]), X([5, 4])], {"transB": 1})
add("gemm_const_weight", "Gemm", [X([3, 4]),
                                  C(np.random.default_rng(2)
                                    .standard_normal((5, 4))),
                                  X([5])], {"transB": 1, "alpha": 2.0})

# Einsum: products, contractions, transposes, a label summed within one
# operand (its gradient broadcast back), "..." with broadcasting, the
# implicit output, three operands, a diagonal of a constant.
EINSUM = [
    ("einsum_matmul", "ij,jk->ik", [[3, 4], [4, 5]]),
    ("einsum_batched", "bij,bjk->bik", [[2, 3, 4], [2, 4, 5]]),
    ("einsum_transpose", "ij->ji", [[3, 4]]),
    ("einsum_rowsum", "ij->i", [[3, 4]]),
    ("einsum_sum_all", "ij->", [[3, 4]]),
    ("einsum_lonely", "ij,k->ik", [[3, 4], [5]]),
    ("einsum_dot", "i,i->", [[5], [5]]),
    ("einsum_outer", "i,j->ij", [[3], [4]]),
    ("einsum_implicit", "ij,jk", [[3, 4], [4, 5]]),
    ("einsum_three", "ij,jk,kl->il", [[2, 3], [3, 4], [4, 2]]),
    ("einsum_ellipsis", "...ij,...jk->...ik", [[2, 3, 4], [2, 4, 5]]),
    ("einsum_ellipsis_bcast", "...ij,...jk->...ik", [[2, 3, 4], [1, 4, 5]]),
    ("einsum_attention", "bhqd,bhkd->bhqk", [[2, 2, 3, 4], [2, 2, 5, 4]]),
]
for name, eq, shapes in EINSUM:
    add(name, "Einsum", [X(s) for s in shapes], {"equation": eq})
add("einsum_diag_const", "Einsum",
    [C(np.random.default_rng(3).standard_normal((3, 3))), X([3, 4])],
    {"equation": "ii,ij->j"}, sym={1: {1: "N"}})
add("einsum_diag_x", "Einsum", [X([3, 3]), X([3, 4])], {"equation": "ii,ij->j"},
    sym={1: {1: "N"}},
    xfail="a label repeated in an x's term (a diagonal) has no gradient rule")
