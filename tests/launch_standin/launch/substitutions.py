"""Substitutions: evaluated against a context holding the launch configurations."""

import math


class Substitution:
    def perform(self, context):
        raise NotImplementedError


def perform(value, context):
    """Text of a substitution, a list of them, or a plain string."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, Substitution):
        return value.perform(context)
    if isinstance(value, (list, tuple)):
        return "".join(perform(v, context) for v in value)
    raise TypeError(f"not a substitution: {value!r}")


class TextSubstitution(Substitution):
    def __init__(self, *, text):
        self.text = text

    def perform(self, context):
        return self.text


class LaunchConfiguration(Substitution):
    def __init__(self, variable_name, default=None):
        self.name = variable_name
        self.default = default

    def perform(self, context):
        if self.name in context.configurations:
            return context.configurations[self.name]
        if self.default is not None:
            return perform(self.default, context)
        raise KeyError(f"launch configuration '{self.name}' is not declared or given")


class PythonExpression(Substitution):
    """Like launch's: the concatenated text evaluated as Python (with `math`)."""

    def __init__(self, expression):
        self.expression = expression

    def perform(self, context):
        text = perform(self.expression, context)
        return str(eval(text, {"math": math}, {}))


class Command(Substitution):
    """Not run here: recorded on the context, and its text stands for the output."""

    def __init__(self, command, on_stderr="fail"):
        self.command = command

    def perform(self, context):
        text = perform(self.command, context)
        context.commands.append(text)
        return "$(" + text + ")"
