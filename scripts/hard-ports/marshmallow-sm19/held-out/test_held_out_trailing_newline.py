"""Held-out tests, hand-written for GitBench (marshmallow-sm19): not in the attempt's repository.

2.x-line's change, as the ticket states it for dev: a URL or an e-mail address followed by a newline is not valid,
whatever form the address takes, in every mode of the URL validator; and dev's rule, which the merge keeps, that an
IPv6 host needs its brackets, in every mode too.
"""
import pytest

from marshmallow import ValidationError, validate

URL_MODES = [
    pytest.param(False, True, id="absolute"),
    pytest.param(True, True, id="relative"),
    pytest.param(False, False, id="no-tld"),
    pytest.param(True, False, id="relative-no-tld"),
]

URLS_OF_EVERY_MODE = [
    "http://example.org",
    "https://example.org/path?query=1",
    "http://user:password@example.org:8080/",
    "http://192.168.0.1/index.html",
    "http://[2001:db8::1]/",
    "http://[::1]:8000/path",
]


@pytest.mark.parametrize("relative, require_tld", URL_MODES)
@pytest.mark.parametrize("url", URLS_OF_EVERY_MODE)
def test_url_followed_by_a_newline_is_invalid(relative, require_tld, url):
    validator = validate.URL(relative=relative, require_tld=require_tld)
    assert validator(url) == url
    with pytest.raises(ValidationError):
        validator(url + "\n")


@pytest.mark.parametrize("url", ["/foo/bar", "/foo?query=1", "?query=1"])
def test_relative_url_followed_by_a_newline_is_invalid(url):
    validator = validate.URL(relative=True)
    assert validator(url) == url
    with pytest.raises(ValidationError):
        validator(url + "\n")


@pytest.mark.parametrize("url", ["http://localhost\n", "http://intranet/path\n"])
def test_host_without_tld_followed_by_a_newline_is_invalid(url):
    validator = validate.URL(require_tld=False)
    assert validator(url.rstrip("\n")) == url.rstrip("\n")
    with pytest.raises(ValidationError):
        validator(url)


@pytest.mark.parametrize("relative, require_tld", URL_MODES)
@pytest.mark.parametrize("url", ["http://2001:db8::1/", "http://::1/", "http://2001:db8::1:8000/path"])
def test_ipv6_host_needs_its_brackets(relative, require_tld, url):
    with pytest.raises(ValidationError):
        validate.URL(relative=relative, require_tld=require_tld)(url)


@pytest.mark.parametrize(
    "email",
    [
        "niceandsimple@example.com",
        "very.common@example.com",
        '"very.unusual.@.unusual.com"@example.com',
        '"john..doe"@example.com',
        "user@[192.168.0.1]",
        '"quoted"@[10.0.0.1]',
        "user@localhost",
    ],
)
def test_email_followed_by_a_newline_is_invalid(email):
    validator = validate.Email()
    assert validator(email) == email
    with pytest.raises(ValidationError):
        validator(email + "\n")


@pytest.mark.parametrize("local_part", ["niceandsimple", '"john..doe"', '"very.unusual.@.unusual.com"'])
def test_local_part_followed_by_a_newline_is_invalid(local_part):
    with pytest.raises(ValidationError):
        validate.Email()(local_part + "\n@example.com")
