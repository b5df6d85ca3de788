from launch.substitutions import perform


class ParameterValue:
    def __init__(self, value, *, value_type=None):
        self.value = value
        self.value_type = value_type

    def evaluate(self, context):
        text = perform(self.value, context)
        if self.value_type is bool:
            t = text.strip().lower()
            if t not in ("true", "false"):
                raise ValueError(f"parameter value '{text}' is not a bool")
            return t == "true"
        if self.value_type in (int, float):
            return self.value_type(text)
        return text
