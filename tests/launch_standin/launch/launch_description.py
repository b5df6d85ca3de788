class LaunchDescription:
    def __init__(self, initial_entities=None):
        self.entities = list(initial_entities or [])

    def add_action(self, action):
        self.entities.append(action)
