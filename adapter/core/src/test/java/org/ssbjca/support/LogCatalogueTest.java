package org.ssbjca.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.ssbjca.docs.Docs;

/**
 * The table of docs/reference/messages.md and the catalogues of log messages ({@link AdapterLog}, and the console's
 * {@code ConsoleLog}) list the same ids at the same levels, no class logs around the catalogue, and every id the
 * guide and operations pages name is named by a test (but for a shrinking list of known debts).
 */
class LogCatalogueTest {

    private static final Path CORE = Path.of("").toAbsolutePath();
    private static final Path CATALOGUE = CORE.resolve("src/main/java/org/ssbjca/support/AdapterLog.java");
    /** The message catalogue's page. */
    private static final String MESSAGES = "docs/reference/messages.md";
    /** The console's own catalogue: it shares no class with the adapter, its ids are in the same table. */
    private static final Path CONSOLE_CATALOGUE = CORE.resolve(
            "../../console/src/main/java/org/ssbjca/console/ConsoleLog.java");

    @Test
    void theMessagesPageListsEveryMessageOfTheCatalogueAtItsLevel() throws IOException {
        Map<String, String> catalogue = new TreeMap<>();
        Matcher m = Pattern.compile("@LogMessage\\(level = (\\w+)\\)\\s+@Message\\(id = (\\d+)")
                .matcher(Files.readString(CATALOGUE));
        while (m.find()) {
            catalogue.put(String.format("SSBJCA%04d", Integer.parseInt(m.group(2))), m.group(1));
        }
        Matcher console = Pattern.compile("log\\(Level\\.(\\w+), (\\d+),").matcher(Files.readString(CONSOLE_CATALOGUE));
        int consoleIds = 0;
        while (console.find()) {
            String id = String.format("SSBJCA%04d", Integer.parseInt(console.group(2)));
            // java.util.logging's level names as the table (and JBoss Logging) writes them
            String level = Map.of("WARNING", "WARN", "SEVERE", "ERROR", "FINE", "DEBUG")
                    .getOrDefault(console.group(1), console.group(1));
            assertEquals(null, catalogue.put(id, level), id + " is in both catalogues");
            consoleIds++;
        }
        assertTrue(consoleIds >= 1, "the console's catalogue was read");
        String section = Docs.page(MESSAGES);
        Map<String, String> documented = new TreeMap<>();
        Matcher row = Pattern.compile("(?m)^\\| `(SSBJCA\\d{4})` \\| (\\w+) \\|").matcher(section);
        while (row.find()) {
            documented.put(row.group(1), row.group(2));
        }
        assertTrue(catalogue.size() >= 30, "the catalogue was read: " + catalogue);
        assertEquals(catalogue, documented, MESSAGES + " vs AdapterLog and ConsoleLog");
    }

    /**
     * Log ids the guide or operations pages name that no test names yet: none since the debt the audit of 2026-12-06
     * found was paid. No id may join; should one have to, for a reason, a test that proves it removes it from here.
     */
    private static final Set<String> NAMED_BY_NO_TEST_YET = Set.of();

    /** A log id the guide or operations pages promise is one an operator looks for: some test names it. */
    @Test
    void everyLogIdTheUsersPagesNameIsNamedByATest() throws IOException {
        Path root = Docs.root();
        Set<String> named = new TreeSet<>();
        for (String pages : List.of("docs/guide", "docs/operations")) {
            named.addAll(ids(root.resolve(pages), ".md"));
        }
        Set<String> tested = new TreeSet<>();
        for (String tests : List.of("adapter/core/src/test", "arquillian/src/test", "console/src/test",
                "monitoring/src/test")) {
            tested.addAll(ids(root.resolve(tests), ".java"));
        }
        assertTrue(named.size() >= 40 && tested.size() >= 30, "the pages and the tests were read: " + named.size()
                + ", " + tested.size());
        Set<String> untested = new TreeSet<>(named);
        untested.removeAll(tested);
        assertEquals(new TreeSet<>(NAMED_BY_NO_TEST_YET), untested,
                "ids the pages name and no test names (a new one needs a test; one now tested leaves the list)");
    }

    /** @return the SSBJCA ids in the files under {@code dir} whose names end with {@code suffix} */
    private static Set<String> ids(Path dir, String suffix) throws IOException {
        Set<String> ids = new TreeSet<>();
        try (var files = Files.walk(dir)) {
            // this class names the untested ids itself: it does not count
            for (Path f : files.filter(f -> f.toString().endsWith(suffix)
                    && !f.getFileName().toString().equals("LogCatalogueTest.java")).toList()) {
                Matcher m = Pattern.compile("SSBJCA\\d{4}").matcher(Files.readString(f));
                while (m.find()) {
                    ids.add(m.group());
                }
            }
        }
        return ids;
    }

    @Test
    void everyLogLineOfTheAdapterGoesThroughTheCatalogue() throws IOException {
        try (var files = Files.walk(CORE.resolve("src/main/java"))) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> {
                try {
                    String text = Files.readString(f);
                    assertTrue(!text.contains("Logger.getLogger(") && !text.matches("(?s).*LOG\\.\\w+f\\(.*"),
                            f + " logs without the catalogue");
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }
    }
}
