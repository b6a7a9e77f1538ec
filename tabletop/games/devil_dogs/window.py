def extras():
    return None
