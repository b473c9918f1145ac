package org.ssbjca.tiers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/development/testing.md against what the build does: the fast tier's command names a profile of the root pom
 * that sets what the page says, and the page's names and figures are those of the code.
 */
class TestingPageTest {

    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).resolve("../..");

    @Test
    void theFastTierCommandRunsTheProfileThePageDescribes() throws IOException {
        String page = page();
        assertTrue(page.contains("`mvn -B -Pfast test`"), "the fast tier's command");
        String profile = fastProfile();
        assertEquals("H2", element(profile, TestTier.BACKENDS_PROPERTY));
        assertEquals(Slow.TAG, element(profile, "excludedGroups"));
        assertEquals("true", element(profile, "skipITs"));
        assertEquals("true", element(profile, "mdep.skip"));
        assertTrue(page.contains("`" + TestTier.BACKENDS_PROPERTY + "=H2`"), TestTier.BACKENDS_PROPERTY);
        assertTrue(page.contains("`excludedGroups=" + Slow.TAG + "`"), "the tag");
        assertTrue(page.contains("`-D" + TestTier.BACKENDS_PROPERTY + "=H2`"), "one class on H2");
    }

    @Test
    void theTimeoutAndTheWaitDefaultsAreThoseOfThePage() throws IOException {
        String page = page();
        for (String module : new String[] {"adapter/core", "monitoring", "arquillian"}) {
            Properties junit = new Properties();
            try (var in = Files.newInputStream(ROOT.resolve(module).resolve(
                    "src/test/resources/junit-platform.properties"))) {
                junit.load(in);
            }
            String timeout = junit.getProperty("junit.jupiter.execution.timeout.default");
            assertEquals("5 m", timeout, module);
            assertTrue(page.contains("`junit.jupiter.execution.timeout.default = " + timeout + "`"), module);
        }
        assertTrue(page.contains("may take " + WaitDefaults.TIMEOUT.toSeconds() + " s and is polled every "
                + WaitDefaults.POLL_INTERVAL.toMillis() + " ms"), "the wait defaults");
        assertTrue(Files.readString(ROOT.resolve("pom.xml")).contains(
                "<forkedProcessTimeoutInSeconds>3600</forkedProcessTimeoutInSeconds>"), "an hour");
    }

    /** @return the page, its line breaks and runs of spaces as single spaces */
    private static String page() throws IOException {
        return Files.readString(ROOT.resolve("docs/development/testing.md")).replaceAll("\\s+", " ");
    }

    private static String fastProfile() throws IOException {
        Matcher m = Pattern.compile("<profile>\\s*<id>fast</id>(.*?)</profile>", Pattern.DOTALL)
                .matcher(Files.readString(ROOT.resolve("pom.xml")));
        assertTrue(m.find(), "the root pom's fast profile");
        return m.group(1);
    }

    private static String element(String xml, String name) {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]*)</" + Pattern.quote(name) + ">")
                .matcher(xml);
        assertTrue(m.find(), name);
        return m.group(1).trim();
    }
}
