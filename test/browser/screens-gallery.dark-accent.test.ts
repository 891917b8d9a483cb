/** Every modal screen in the dark-accent look, as a picture and through axe-core: support/screens-gallery.ts. */
import { screensGallery } from './support/screens-gallery';

screensGallery('dark-accent');
