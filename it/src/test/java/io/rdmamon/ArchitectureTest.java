package io.rdmamon;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.rdmamon.protocol.testing.ArchitectureRules;

import java.net.URISyntaxException;
import java.util.Set;
import java.util.stream.Collectors;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The it module holds tests only, in packages it shares with the modules it tests: no module's main code uses its
 * classes (the command line least of all, the one module that could reach it), and its own packages import each
 * other one way only. The main classes of every module are imported; this module's classes apart, from where this
 * class was loaded.
 */
@AnalyzeClasses(packages = "io.rdmamon", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    private static final JavaClasses IT_CLASSES = new ClassFileImporter().importLocations(Set.of(itLocation()));
    private static final Set<String> IT_CLASS_NAMES =
            IT_CLASSES.stream().map(JavaClass::getName).collect(Collectors.toUnmodifiableSet());

    @ArchTest
    static final ArchRule mainCodeUsesNoItClass = noClasses().should().dependOnClassesThat(
            DescribedPredicate.describe("are the it module's", c -> IT_CLASS_NAMES.contains(c.getName())));

    @ArchTest
    static void itPackagesImportOneWay(JavaClasses mainClasses) {
        slices().assignedFrom(ArchitectureRules.eachPackageBelow("io.rdmamon")).should().beFreeOfCycles()
                .check(IT_CLASSES);
    }

    private static Location itLocation() {
        try {
            return Location.of(ArchitectureTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
