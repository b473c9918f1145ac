package org.ssbjca.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.ssbjca.docs.Docs;

/**
 * The table of docs/reference/messages.md and the catalogues of log messages ({@link AdapterLog}, and the console's
 * {@code ConsoleLog}) list the same ids at the same levels, and no class logs around the catalogue.
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
