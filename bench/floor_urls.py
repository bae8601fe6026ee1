"""The framework floor: the least any Django app must do to store a submission, next to the
product's URLs in the same server. One DRF view with the app's token authentication (REST_FRAMEWORK's
default classes) validates a small JSON body with a serializer and INSERTs one row inside
transaction.atomic().

Loaded only through bench.floor_settings; the table is the benchmark's own (FLOOR_TABLE, made by
bench/submit.py)."""

from django.db import connection, transaction
from django.urls import path
from psycopg2.extras import Json
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from phm.urls import handler400, handler404, handler500  # noqa: F401
from phm.urls import urlpatterns as product_urlpatterns

FLOOR_TABLE = "bench_floor_submission"
FLOOR_PATH = "bench/floor/"
CREATE_TABLE = (
    f'CREATE TABLE IF NOT EXISTS "{FLOOR_TABLE}" (id bigserial PRIMARY KEY, user_id integer NOT NULL, '
    "name varchar(100) NOT NULL, cards jsonb NOT NULL, created_at timestamptz NOT NULL)"
)


class FloorInput(serializers.Serializer):
    name = serializers.CharField(max_length=100, allow_blank=True)
    cards = serializers.ListField(child=serializers.CharField(max_length=200), min_length=1, max_length=20)


class FloorView(APIView):
    permission_classes = [IsAuthenticated]

    def put(self, request):
        incoming = FloorInput(data=request.data)
        incoming.is_valid(raise_exception=True)
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                f'INSERT INTO "{FLOOR_TABLE}" (user_id, name, cards, created_at) '  # noqa: S608  (a constant)
                "VALUES (%s, %s, %s, now()) RETURNING id",
                [request.user.pk, incoming.validated_data["name"], Json(incoming.validated_data["cards"])],
            )
            [row_id] = cursor.fetchone()
        return Response({"id": row_id}, status=status.HTTP_201_CREATED)


urlpatterns = [path(FLOOR_PATH, FloorView.as_view(), name="bench-floor"), *product_urlpatterns]
