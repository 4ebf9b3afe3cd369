/// The functions the SQL compiler calls (`SQLFunctions`), defined in SQL in the store's schema:
/// PostgreSQL cannot call the evaluator's Swift code as SQLite does, so each reproduces its
/// semantics with the server's own operations.
///
/// - `[c]` and `[d]` fold both sides as the evaluator does (`StringFolding`): marks removed
///   after canonical decomposition for `[d]`, case folded with ICU's Unicode mappings
///   (`und-x-icu`, upper then lower case, so that `ß` is `ss`) for `[c]`, then composed again.
/// - Without options (and with `[n]`), strings order by their UTF-8 bytes (`COLLATE "C"`), which
///   is code point order, as Apple's store and the evaluator order them; with `[c]` or `[d]`, by
///   the bytes of the folded strings decomposed, which puts an accented letter after its base
///   letter and before the next one, as Foundation's `compare(_:)` does.
/// - `LIKE` turns `*` and `?` into a regular expression matched against the whole string;
///   `MATCHES` matches PostgreSQL's regular expressions (POSIX's, close to ICU's) against the
///   whole string, ICU's commonest Unicode classes (`\p{Lu}`, `\p{Ll}`, `\p{L}`, `\p{N}`)
///   written as POSIX classes; a pattern that is no regular expression matches nothing, as in
///   the evaluator.
/// - Division follows the evaluator: by zero, integers give 0 and real numbers an infinity.
///
/// Each test returns 1 or 0 as the compiler expects; `LIKE`, `MATCHES` and the searches give 0
/// for a NULL operand, as SQLite's functions do, the comparisons NULL.
enum PostgreSQLFunctions {
    static let definitions = #"""
        CREATE OR REPLACE FUNCTION cd_fold(value text, options bigint) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT CASE WHEN (options & 4) <> 0 OR (options & 3) = 0 THEN value
                ELSE normalize(CASE WHEN (options & 1) <> 0
                    THEN lower(upper(unmarked COLLATE "und-x-icu") COLLATE "und-x-icu") ELSE unmarked END, NFC) END
            FROM (SELECT CASE WHEN (options & 2) <> 0
                THEN regexp_replace(normalize(value, NFD), '[\u0300-\u036f]', '', 'g')
                ELSE value END AS unmarked) AS f
        $$;
        CREATE OR REPLACE FUNCTION cd_equal(a text, b text, options bigint) RETURNS bigint
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT CASE WHEN a IS NULL OR b IS NULL THEN NULL
                WHEN cd_fold(a, options) = cd_fold(b, options) THEN 1 ELSE 0 END
        $$;
        CREATE OR REPLACE FUNCTION cd_order_key(value text, options bigint) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT CASE WHEN (options & 4) <> 0 OR (options & 3) = 0 THEN value
                ELSE normalize(cd_fold(value, options), NFD) END COLLATE "C"
        $$;
        CREATE OR REPLACE FUNCTION cd_compare(a text, b text, options bigint) RETURNS bigint
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT CASE WHEN a IS NULL OR b IS NULL THEN NULL
                WHEN cd_order_key(a, options) < cd_order_key(b, options) THEN -1
                WHEN cd_order_key(a, options) > cd_order_key(b, options) THEN 1
                ELSE 0 END
        $$;
        CREATE OR REPLACE FUNCTION cd_search(value text, needle text, options bigint, mode bigint) RETURNS bigint
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT CASE WHEN value IS NULL OR needle IS NULL OR needle = '' THEN 0
                WHEN mode = 0 THEN CASE WHEN strpos(cd_fold(value, options), cd_fold(needle, options)) > 0 THEN 1 ELSE 0 END
                WHEN mode = 1 THEN CASE WHEN starts_with(cd_fold(value, options), cd_fold(needle, options)) THEN 1 ELSE 0 END
                ELSE CASE WHEN right(cd_fold(value, options), length(cd_fold(needle, options))) = cd_fold(needle, options) THEN 1 ELSE 0 END
                END
        $$;
        CREATE OR REPLACE FUNCTION cd_like_pattern(pattern text) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT '^' || replace(replace(
                regexp_replace(pattern, '([.+^$()\[\]{}|\\])', '\\\1', 'g'),
                '*', '.*'), '?', '.') || '$'
        $$;
        CREATE OR REPLACE FUNCTION cd_like(value text, pattern text, options bigint) RETURNS bigint
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT CASE WHEN value IS NULL OR pattern IS NULL THEN 0
                WHEN cd_fold(value, options) ~ cd_like_pattern(cd_fold(pattern, options)) THEN 1 ELSE 0 END
        $$;
        CREATE OR REPLACE FUNCTION cd_regex_pattern(pattern text) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT '^(?:' || replace(replace(replace(replace(replace(replace(replace(replace(pattern,
                '\p{Lu}', '[[:upper:]]'), '\P{Lu}', '[^[:upper:]]'),
                '\p{Ll}', '[[:lower:]]'), '\P{Ll}', '[^[:lower:]]'),
                '\p{L}', '[[:alpha:]]'), '\P{L}', '[^[:alpha:]]'),
                '\p{Nd}', '[[:digit:]]'), '\p{N}', '[[:digit:]]') || ')$'
        $$;
        CREATE OR REPLACE FUNCTION cd_matches(value text, pattern text, options bigint) RETURNS bigint
        LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
        BEGIN
            IF value IS NULL OR pattern IS NULL THEN RETURN 0; END IF;
            IF (options & 1) <> 0 THEN
                RETURN CASE WHEN cd_fold(value, options) ~* cd_regex_pattern(pattern) THEN 1 ELSE 0 END;
            END IF;
            RETURN CASE WHEN cd_fold(value, options) ~ cd_regex_pattern(pattern) THEN 1 ELSE 0 END;
        EXCEPTION WHEN invalid_regular_expression THEN
            RETURN 0;
        END
        $$;
        CREATE OR REPLACE FUNCTION cd_uppercase(value text) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT upper(value COLLATE "und-x-icu") $$;
        CREATE OR REPLACE FUNCTION cd_lowercase(value text) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT lower(value COLLATE "und-x-icu") $$;
        CREATE OR REPLACE FUNCTION cd_divide(a double precision, b double precision, integral bigint) RETURNS double precision
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT CASE WHEN a IS NULL OR b IS NULL THEN NULL
                WHEN b = 0 THEN CASE WHEN integral = 1 THEN 0
                    WHEN a > 0 THEN 'Infinity'::double precision WHEN a < 0 THEN '-Infinity'::double precision
                    ELSE 'NaN'::double precision END
                WHEN integral = 1 THEN trunc(a / b)
                ELSE a / b END
        $$;
        CREATE OR REPLACE FUNCTION cd_modulus(a double precision, b double precision, integral bigint) RETURNS double precision
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT CASE WHEN a IS NULL OR b IS NULL THEN NULL
                WHEN b = 0 THEN CASE WHEN integral = 1 THEN 0 ELSE 'NaN'::double precision END
                WHEN integral = 1 THEN (trunc(a)::bigint % trunc(b)::bigint)::double precision
                ELSE a - b * trunc(a / b) END
        $$;
        """#
}
