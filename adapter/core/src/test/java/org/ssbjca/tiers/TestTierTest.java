package org.ssbjca.tiers;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.opentest4j.TestAbortedException;

/** The test tiers' switches, as docs/development/testing.md describes them. */
class TestTierTest {

    /** The configuration parameters JUnit read for this run (junit-platform.properties). */
    private static final AtomicReference<String> TIMEOUT_DEFAULT = new AtomicReference<>();

    @RegisterExtension
    static final BeforeEachCallback READ_CONFIGURATION = context -> TIMEOUT_DEFAULT.set(
            context.getConfigurationParameter("junit.jupiter.execution.timeout.default").orElse(null));

    private String before;

    @BeforeEach
    void keep() {
        before = System.getProperty(TestTier.BACKENDS_PROPERTY);
    }

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(TestTier.BACKENDS_PROPERTY);
        } else {
            System.setProperty(TestTier.BACKENDS_PROPERTY, before);
        }
    }

    @Test
    void everyTestHasADefaultTimeoutOfFiveMinutes() {
        assertEquals("5 m", TIMEOUT_DEFAULT.get());
    }

    @Test
    void unsetOrBlankMeansEveryBackend() {
        System.clearProperty(TestTier.BACKENDS_PROPERTY);
        assertTrue(TestTier.runs("PostgreSQL") && TestTier.runs("H2") && TestTier.runs("SQL Server"));
        System.setProperty(TestTier.BACKENDS_PROPERTY, " ");
        assertTrue(TestTier.runs("PostgreSQL"));
    }

    @Test
    void theFastTierRunsH2AndSkipsPostgres() {
        System.setProperty(TestTier.BACKENDS_PROPERTY, "H2");
        assertTrue(TestTier.runs("H2"));
        assertFalse(TestTier.runs("PostgreSQL"));
        assertFalse(TestTier.runs("SQLServer"));
        assertThrows(TestAbortedException.class, TestTier::assumePostgres, "a PostgreSQL test is skipped");
        System.setProperty(TestTier.BACKENDS_PROPERTY, "h2, postgresql");
        assertTrue(TestTier.runs("PostgreSQL"));
        TestTier.assumePostgres();
    }

    @Test
    void theWaitDefaultsAreSetForEveryTestJvm() {
        assertTrue(java.util.ServiceLoader.load(org.junit.platform.launcher.LauncherSessionListener.class).stream()
                .anyMatch(p -> p.type() == WaitDefaults.class), "registered in META-INF/services");
        long[] polls = {0};
        await("three polls").until(() -> ++polls[0] >= 3);
        assertEquals(3, polls[0]);
        assertThrows(ConditionTimeoutException.class, () -> await("never").atMost(Duration.ofMillis(50))
                .until(() -> false));
    }
}
