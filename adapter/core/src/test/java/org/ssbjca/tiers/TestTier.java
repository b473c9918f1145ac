package org.ssbjca.tiers;

import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;

/**
 * Which database backends this test run reaches, from the system property {@value #BACKENDS_PROPERTY}: a
 * comma-separated list of {@code H2}, {@code PostgreSQL} and {@code SQLServer}, all of them when unset or blank. The
 * fast tier ({@code mvn -Pfast}) sets it to {@code H2}: the conformance suite then runs on H2 only, and every other use
 * of PostgreSQL is skipped through {@link #assumePostgres()}.
 */
public final class TestTier {

    /** The system property that names the backends of this run. */
    public static final String BACKENDS_PROPERTY = "ssbjca.test.backends";

    private TestTier() {
    }

    /**
     * @param backend {@code H2}, {@code PostgreSQL} or {@code SQLServer} (case and spaces ignored)
     * @return whether this run reaches that backend
     */
    public static boolean runs(String backend) {
        String value = System.getProperty(BACKENDS_PROPERTY, "");
        if (value.isBlank()) {
            return true;
        }
        Set<String> named = Arrays.stream(value.split(",")).map(TestTier::normalise).collect(Collectors.toSet());
        return named.contains(normalise(backend));
    }

    /** Skips the calling test (reported as skipped, not failed) when this run does not reach PostgreSQL. */
    public static void assumePostgres() {
        Assumptions.assumeTrue(runs("PostgreSQL"), "PostgreSQL is not in this run's backends ("
                + BACKENDS_PROPERTY + "=" + System.getProperty(BACKENDS_PROPERTY) + ")");
    }

    private static String normalise(String backend) {
        return backend.replace(" ", "").trim().toLowerCase(Locale.ROOT);
    }
}
