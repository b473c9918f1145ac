package org.ssbjca.galleon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/guide/galleon.md shows the wildfly-maven-plugin configuration that GalleonIT's server is provisioned with:
 * the page's first xml block equals, line by line without indentation, the pom's plugin between the
 * {@code recipe:start} and {@code recipe:end} comments.
 */
class GalleonRecipeTest {

    @Test
    void theGuidesSnippetIsThePluginTheTestProvisionsWith() throws IOException {
        List<String> page = Files.readAllLines(Path.of(System.getProperty("ssb.galleon.guide")));
        List<String> pom = Files.readAllLines(Path.of(System.getProperty("ssb.galleon.pom")));
        List<String> snippet = between(page, l -> l.equals("```xml"), l -> l.equals("```"));
        List<String> plugin = between(pom, l -> l.startsWith("<!-- recipe:start"),
                l -> l.equals("<!-- recipe:end -->"));
        assertTrue(snippet.size() > 10, "the page has the snippet: " + snippet);
        assertEquals(plugin, snippet, "docs/guide/galleon.md and galleon-it/pom.xml differ");
    }

    private static List<String> between(List<String> lines, java.util.function.Predicate<String> start,
            java.util.function.Predicate<String> end) {
        List<String> trimmed = lines.stream().map(String::strip).toList();
        int from = -1;
        for (int i = 0; i < trimmed.size(); i++) {
            if (from < 0 && start.test(trimmed.get(i))) {
                from = i + 1;
            } else if (from >= 0 && end.test(trimmed.get(i))) {
                return trimmed.subList(from, i);
            }
        }
        throw new AssertionError("no block found");
    }
}
