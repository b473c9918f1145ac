package org.ssbjca.galleon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * docs/guide/galleon.md promises that the layer {@code ssb-jca} configures the {@code resource-adapters} subsystem
 * with "the same settings as {@code wildfly/ssb-jca.cli}": the layer's features and the script's {@code :add}
 * operations, read as resources (their address below the subsystem) and their attributes, are equal.
 */
class GalleonLayerSettingsTest {

    private static final String SUBSYSTEM = "/subsystem=resource-adapters/";
    private static final String FEATURE_PREFIX = "subsystem.resource-adapters.";
    private static final Pattern ADD = Pattern.compile("^" + Pattern.quote(SUBSYSTEM) + "(.+):add\\((.*)\\)$");

    @Test
    void theLayerConfiguresWhatTheScriptAdds() throws Exception {
        Map<String, Map<String, String>> script = script(Path.of(System.getProperty("ssb.galleon.cli")));
        Map<String, Map<String, String>> layer = layer(Path.of(System.getProperty("ssb.galleon.layer")));
        assertTrue(script.size() >= 3 && script.values().stream().mapToInt(Map::size).sum() >= 10,
                "the script's resources were read: " + script);
        assertEquals(script, layer, "wildfly/ssb-jca.cli and the layer ssb-jca differ");
    }

    /** The script's {@code :add} operations below the subsystem: address, then attribute to value. */
    private static Map<String, Map<String, String>> script(Path cli) throws IOException {
        Map<String, Map<String, String>> resources = new TreeMap<>();
        for (String line : Files.readAllLines(cli)) {
            Matcher m = ADD.matcher(line.strip());
            if (m.matches()) {
                Map<String, String> attributes = new TreeMap<>();
                for (String pair : m.group(2).split(",\\s*")) {
                    int eq = pair.indexOf('=');
                    attributes.put(pair.substring(0, eq).strip(), unquoted(pair.substring(eq + 1).strip()));
                }
                resources.put(m.group(1), attributes);
            }
        }
        return resources;
    }

    /** The layer's features of the subsystem, nested as their resources are: address, then parameter to value. */
    private static Map<String, Map<String, String>> layer(Path spec) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        Element root = factory.newDocumentBuilder().parse(spec.toFile()).getDocumentElement();
        Map<String, Map<String, String>> resources = new TreeMap<>();
        for (Element feature : children(root, "feature")) {
            collect(feature, "", resources);
        }
        return resources;
    }

    private static void collect(Element feature, String parent, Map<String, Map<String, String>> resources) {
        String spec = feature.getAttribute("spec");
        assertTrue(spec.startsWith(FEATURE_PREFIX), "a feature of the subsystem: " + spec);
        String type = spec.substring(spec.lastIndexOf('.') + 1);
        Map<String, String> attributes = new TreeMap<>();
        String name = null;
        for (Element param : children(feature, "param")) {
            if (param.getAttribute("name").equals(type)) {
                name = param.getAttribute("value");
            } else {
                attributes.put(param.getAttribute("name"), unquoted(param.getAttribute("value")));
            }
        }
        assertTrue(name != null, "feature " + spec + " names its resource");
        String address = parent + type + "=" + name;
        resources.put(address, attributes);
        for (Element child : children(feature, "feature")) {
            collect(child, address + "/", resources);
        }
    }

    private static List<Element> children(Element parent, String localName) {
        List<Element> found = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && localName.equals(e.getLocalName())) {
                found.add(e);
            }
        }
        return found;
    }

    private static String unquoted(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1) : value;
    }
}
