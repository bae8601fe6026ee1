from datetime import timedelta

import factory
from django.utils import timezone

from rounds.models import League, Round, RoundState


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = League

    number = factory.Sequence(lambda n: 40 + n)
    name = factory.LazyAttribute(lambda league: f"League {league.number}")


class RoundFactory(factory.django.DjangoModelFactory):
    """An open round whose deadline is two days away (pass state/deadline for others)."""

    class Meta:
        model = Round

    league = factory.SubFactory(LeagueFactory)
    number = factory.Sequence(lambda n: n + 1)
    title = factory.Sequence(lambda n: f"Round title {n}")
    hand_size = 5
    deadline = factory.LazyFunction(lambda: timezone.now() + timedelta(days=2))
    state = RoundState.OPEN
