g.V().hasLabel('person').has('age', P.gt(30)).order().by('name', Order.desc).values('name')
