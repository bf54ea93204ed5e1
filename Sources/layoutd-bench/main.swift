print("layoutd-bench: not yet")
