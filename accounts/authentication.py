"""The API's token authentication: DRF's, with the user's profile loaded in the same query.

Nearly every authenticated API write reads the profile afterwards (notification choices, time zone), so the
token's one query fetches token, user and profile together instead of two queries."""

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key):
        model = self.get_model()
        try:
            token = model.objects.select_related("user", "user__profile").get(key=key)
        except model.DoesNotExist as error:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from error
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token
