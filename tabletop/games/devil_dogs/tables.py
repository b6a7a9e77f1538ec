def tables():
    return []
