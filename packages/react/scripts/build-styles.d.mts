export declare const styleParts: string[];
export declare const stylesheetPath: string;
export declare function buildStylesheet(): string;
