from django.contrib import admin

from .models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "forum_username", "time_zone"]
    search_fields = ["user__username", "forum_username"]
