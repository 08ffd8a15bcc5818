"""What staff can look up in Django's admin (README "Staff look-up").

Registered here, in one app, rather than in an admin.py per app: the look-up is a staff tool
over every app's records, and the rules for what may be changed are one policy, stated once.

Every active staff member may look (the app's staff, `is_staff`, hold no Django permissions);
changing takes Django's own permissions (a superuser, or one granted them), so a staff member
cannot, say, make themselves a superuser here. Read-only, whatever the permissions say: an exam
attempt and its answers (its grade, the statistics and a certificate rest on them), a
certificate (its payload is signed: a changed column would print something the signature does
not say; revoking is the certificates page's job, which records who and why), a clinic and its
participants. Editable with permissions: people, courses, cohorts' and exams' settings.
"""

from typing import Any

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.db.models import Model
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from polotrainer.certificates.models import Certificate
from polotrainer.clinics.models import ClinicSession, Participant
from polotrainer.courses.exams.models import Exam, ExamAttempt, ExamSlot
from polotrainer.courses.models import Cohort, Course, Membership
from polotrainer.umpires.forms import LoginForm
from polotrainer.umpires.models import Profile

admin.site.site_header = _("polotrainer: staff look-up")
admin.site.site_title = _("polotrainer staff")
admin.site.index_title = _("Look things up")


class StaffLoginForm(LoginForm, AdminAuthenticationForm):
    """The admin's log-in form with the site's own limit on the username: an overlong one
    reached django-axes' 255-character column, which PostgreSQL refuses (a server error)."""


admin.site.login_form = StaffLoginForm


class StaffMayLook:
    """Any active staff member sees the records; changing needs Django's permissions."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return _staff(request) or super().has_module_permission(request)  # type: ignore[misc]

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return _staff(request) or super().has_view_permission(request, obj)  # type: ignore[misc]


def _staff(request: HttpRequest) -> bool:
    return bool(request.user.is_active and request.user.is_staff)


class ReadOnly:
    """Seen, searched and filtered; never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class ProfileInline(StaffMayLook, admin.StackedInline):  # type: ignore[type-arg]  # not generic at run time
    model = Profile
    can_delete = False
    extra = 0


admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class PersonAdmin(StaffMayLook, UserAdmin[User]):
    inlines = [ProfileInline]
    search_fields = ["username", "email", "first_name", "last_name", "profile__display_name"]
    list_display = ["username", "email", "display_name", "is_staff", "is_active", "last_login"]

    @admin.display(description=_("display name"), ordering="profile__display_name")
    def display_name(self, user: Any) -> str:
        profile = getattr(user, "profile", None)
        return profile.display_name if profile else ""


@admin.register(Course)
class CourseAdmin(StaffMayLook, admin.ModelAdmin[Course]):
    list_display = ["title_it", "title_en", "track", "year"]
    list_filter = ["track", "year"]
    search_fields = ["title_it", "title_en"]
    filter_horizontal = ["instructors"]
    readonly_fields = ["created_by", "created_at"]


class MembershipInline(StaffMayLook, ReadOnly, admin.TabularInline):  # type: ignore[type-arg]  # not generic at run time
    model = Membership
    fields = ["user", "joined_at"]
    readonly_fields = ["user", "joined_at"]
    extra = 0


@admin.register(Cohort)
class CohortAdmin(StaffMayLook, admin.ModelAdmin[Cohort]):
    list_display = ["name", "course", "join_code", "join_enabled", "max_trainees", "created_at"]
    list_filter = ["join_enabled", "course__year"]
    search_fields = ["name", "join_code", "course__title_it", "course__title_en"]
    list_select_related = ["course"]
    # The code is drawn by the app so that it is unique and unguessable; never typed.
    readonly_fields = ["course", "join_code", "created_at"]
    inlines = [MembershipInline]


@admin.register(Exam)
class ExamAdmin(StaffMayLook, admin.ModelAdmin[Exam]):
    list_display = ["title_it", "title_en", "cohort", "opens_at", "closes_at", "pass_percent"]
    list_filter = ["closed_book", "cohort__course__track"]
    search_fields = ["title_it", "title_en", "cohort__name", "cohort__course__title_en"]
    list_select_related = ["cohort__course"]
    date_hierarchy = "opens_at"
    # The blueprint's scenarios were resolved and frozen when it was set, and the release of
    # hidden answers is the app's to record.
    readonly_fields = ["cohort", "blueprint", "created_by", "created_at", "released_at"]


class SlotInline(StaffMayLook, ReadOnly, admin.StackedInline):  # type: ignore[type-arg]  # not generic at run time
    """Stacked, not a table: a slot's answers and marks are JSON, wider than a phone, and the
    admin's tabular inline scrolls them in a region a keyboard cannot reach (axe:
    scrollable-region-focusable, tests/browser/test_every_page.py at 360 px)."""

    model = ExamSlot
    fields = ["position", "scenario", "seed", "given", "marks", "saved_at"]
    readonly_fields = ["position", "scenario", "seed", "given", "marks", "saved_at"]
    extra = 0


@admin.register(ExamAttempt)
class AttemptAdmin(StaffMayLook, ReadOnly, admin.ModelAdmin[ExamAttempt]):
    list_display = ["code", "exam", "user", "started_at", "finished_at", "right", "total"]
    list_filter = ["passed", "preview", "finished_by"]
    search_fields = ["user__username", "user__email", "exam__title_it", "exam__title_en"]
    list_select_related = ["exam", "user"]
    date_hierarchy = "started_at"
    inlines = [SlotInline]

    @admin.display(description=_("reference"), ordering="pk")
    def code(self, attempt: ExamAttempt) -> str:
        return attempt.reference


@admin.register(Certificate)
class CertificateAdmin(StaffMayLook, ReadOnly, admin.ModelAdmin[Certificate]):
    list_display = ["code", "kind", "holder_name", "course_title_en", "issued_on", "expires_on"]
    list_filter = ["kind", "track", "year", "language"]
    search_fields = ["code", "holder_name", "user__username", "user__email", "course_title_en"]
    date_hierarchy = "issued_on"


class ParticipantInline(StaffMayLook, ReadOnly, admin.TabularInline):  # type: ignore[type-arg]  # not generic at run time
    model = Participant
    fields = ["nickname", "user", "team"]
    readonly_fields = ["nickname", "user", "team"]
    extra = 0


@admin.register(ClinicSession)
class ClinicAdmin(StaffMayLook, ReadOnly, admin.ModelAdmin[ClinicSession]):
    list_display = ["title", "instructor", "phase", "created_at", "ended_at"]
    list_filter = ["phase"]
    search_fields = ["title", "instructor__username", "participants__nickname"]
    list_select_related = ["instructor"]
    date_hierarchy = "created_at"
    inlines = [ParticipantInline]
