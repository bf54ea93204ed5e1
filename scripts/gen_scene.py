#!/usr/bin/env python3
"""Generate a big, fully determined layoutd scene for the performance benchmark.

The scene is a scrolling form: N views arranged as rows. Every row is a view
(child of the container) holding a label (intrinsic size, baseline), a text
field that takes the remaining width, and a trailing accessory; a row is
4 views. Rows are stacked with equations (`rowK.top == rowJ.bottom + 4`) so no
single constraint grows with N. Each row's content is laid out with VFL (the
same shapes as a hand-written form), so the solver sees the same kind of
system at every size, just more of it.

Usage: gen_scene.py VIEWS [--width W] [--pad P] > scene.json
VIEWS is rounded down to a multiple of 4 (at least 4). Output is compact JSON,
deterministic for given arguments.
"""
import argparse
import json
import sys


def scene(views: int, width: float, pad: float = 16) -> dict:
    rows = max(1, views // 4)
    view_objs: dict[str, dict] = {}
    constraints: list = []
    for r in range(rows):
        row, label, field, acc = f"row{r}", f"label{r}", f"field{r}", f"acc{r}"
        view_objs[row] = {}
        view_objs[label] = {"parent": row, "intrinsicSize": {"width": 60 + (r % 5) * 8, "height": 21},
                            "baseline": 17}
        view_objs[field] = {"parent": row, "intrinsicSize": {"width": -1, "height": 34},
                            "hugging": {"horizontal": 200}}
        view_objs[acc] = {"parent": row, "intrinsicSize": {"width": 24, "height": 24}}
        constraints.append(f"H:|-pad-[{row}]-pad-|")
        if r == 0:
            constraints.append(f"V:|-20-[{row}(44)]")
        else:
            constraints.append(f"{row}.top == row{r - 1}.bottom + 4")
            constraints.append(f"{row}.height == row{r - 1}.height")
        constraints.append({"vfl": f"H:|-[{label}(labelW)]-[{field}]-[{acc}]-|", "options": ["alignAllCenterY"]})
        constraints.append(f"V:|-5-[{field}]")
    return {
        "container": {"width": width, "height": 667},
        "views": view_objs,
        "metrics": {"pad": pad, "labelW": 88},
        "constraints": constraints,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("views", type=int, help="number of views (rounded down to a multiple of 4)")
    parser.add_argument("--width", type=float, default=375, help="container width, points")
    parser.add_argument("--pad", type=float, default=16,
                        help="the rows' inset metric, points: a different value is a different structure")
    args = parser.parse_args()
    json.dump(scene(args.views, args.width, args.pad), sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
