package org.ssbjca.tiers;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * The suite's one wait: Awaitility's {@code await(...).until(...)}, with these defaults set once per test JVM
 * (registered in {@code META-INF/services}). A condition gets {@link #TIMEOUT} unless its test says otherwise: long
 * enough for a machine three times slower than a developer's, so only a test that checks a bound names a shorter one.
 */
public final class WaitDefaults implements LauncherSessionListener {

    /** How long a condition may take by default. */
    public static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** How often a condition is polled by default. */
    public static final Duration POLL_INTERVAL = Duration.ofMillis(20);

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        Awaitility.setDefaultTimeout(TIMEOUT);
        Awaitility.setDefaultPollInterval(POLL_INTERVAL);
    }
}
