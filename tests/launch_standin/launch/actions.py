from launch.substitutions import perform


class Action:
    def __init__(self, condition=None):
        self.condition = condition


class DeclareLaunchArgument(Action):
    def __init__(self, name, *, default_value=None, description="", choices=None, **kwargs):
        super().__init__(kwargs.get("condition"))
        self.name = name
        self.default_value = default_value
        self.description = description
        self.choices = choices


class ExecuteProcess(Action):
    def __init__(self, *, cmd, name=None, output=None, condition=None, cwd=None, additional_env=None,
                 **kwargs):
        super().__init__(condition)
        self.cmd = cmd
        self.name = name
        self.output = output
        self.additional_env = additional_env or {}

    def record(self, context):
        cmd = [perform(c, context) for c in self.cmd]
        return {"kind": "process", "name": perform(self.name, context) or cmd[0], "cmd": cmd,
                "env": {k: perform(v, context) for k, v in self.additional_env.items()}}


class RegisterEventHandler(Action):
    def __init__(self, event_handler, **kwargs):
        super().__init__(kwargs.get("condition"))
        self.event_handler = event_handler
