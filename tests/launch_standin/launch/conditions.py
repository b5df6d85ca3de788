from launch.substitutions import perform


def _truth(text):
    t = text.strip().lower()
    if t in ("true", "1"):
        return True
    if t in ("false", "0"):
        return False
    raise ValueError(f"condition value '{text}' is not a boolean")


class IfCondition:
    def __init__(self, predicate_expression):
        self.expression = predicate_expression

    def evaluate(self, context):
        return _truth(perform(self.expression, context))


class UnlessCondition(IfCondition):
    def evaluate(self, context):
        return not super().evaluate(context)
