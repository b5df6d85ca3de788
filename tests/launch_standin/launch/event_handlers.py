class OnProcessExit:
    """Actions started when `target_action` exits (recorded with `after`)."""

    def __init__(self, *, target_action, on_exit):
        self.target_action = target_action
        self.on_exit = on_exit if isinstance(on_exit, (list, tuple)) else [on_exit]
