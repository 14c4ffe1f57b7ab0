def limit = 2; x = g.V().hasLabel('person')

names = x.limit(limit).values('name').toList()
names
