"""The API's token endpoint, throttled like every other password check (accounts.throttle)."""

from django.contrib.auth import authenticate
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken

from phm.api_fields import Text


class AuthTokenRequestSerializer(AuthTokenSerializer):
    def validate(self, attrs):
        username, password = attrs.get("username"), attrs.get("password")
        request = self.context.get("request")
        # django-axes counts the attempt on, and flags a lockout on, Django's own request: the one its
        # middleware answers (DRF's Request wrapper would keep the flag to itself).
        user = authenticate(
            request=getattr(request, "_request", request), username=username, password=password
        )
        if not user:
            raise serializers.ValidationError(
                "Unable to log in with provided credentials.", code="authorization"
            )
        attrs["user"] = user
        return attrs


class ObtainToken(ObtainAuthToken):
    serializer_class = AuthTokenRequestSerializer

    @extend_schema(
        request=AuthTokenRequestSerializer,
        responses={
            200: inline_serializer("AuthToken", {"token": Text()}),
            400: OpenApiResponse(description="Wrong username or password."),
            429: OpenApiResponse(
                description='Too many failed attempts: `{"detail", "code": "throttled"}`; Retry-After says '
                "how many seconds until the next try is accepted."
            ),
        },
        auth=[],
    )
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)


obtain_token = ObtainToken.as_view()
